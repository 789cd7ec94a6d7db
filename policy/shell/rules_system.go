package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// rm denies a forced recursive delete in any spelling. Plain `rm -r` and
// `rm -f` stay allowed: the seed's pattern is `rm -rf`, and recursive
// delete without force still stops at write-protected files.
func (s *scope) rm(argv []field, in inv) {
	var rec, force, noRoot bool
	var unknown *field
	for i := 1; i < len(argv); i++ {
		f := argv[i]
		switch {
		case f.operand:
		case f.s == "--" && f.known:
			i = len(argv) // everything after -- is a file name
		case !f.known:
			if unknown == nil {
				unknown = &argv[i]
			}
		case longFlag(f, "recursive", 1):
			rec = true
		case longFlag(f, "force", 1):
			force = true
		case longFlag(f, "no-preserve-root", 2):
			noRoot = true
		case strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "--"):
			// PowerShell's rm -Recurse -Force (any unambiguous prefix).
			l := strings.ToLower(f.s)
			rec = rec || strings.ContainsAny(f.s[1:], "rR") || (len(l) > 2 && strings.HasPrefix("-recurse", l))
			force = force || strings.ContainsRune(f.s[1:], 'f') || (len(l) > 2 && strings.HasPrefix("-force", l))
		}
	}
	a := texts(argv)
	switch {
	case rec && force:
		s.find(Deny, DestructiveFileOp, a, in, "rm with -r and -f (recursive forced delete)")
	case noRoot:
		s.find(Deny, DestructiveFileOp, a, in, "rm with --no-preserve-root")
	case unknown != nil:
		// rm $OPTS x: the value could be -rf, so a human should look.
		s.find(Ask, Unanalysable, a, in, "rm argument "+unknown.s+" is only known at run time and could add -r -f (put -- before file names)")
	}
}

// winDelete covers cmd.exe's del /f, rmdir /s, rd /s and PowerShell's
// Remove-Item -Recurse -Force.
func (s *scope) winDelete(base string, argv []field, in inv) {
	var slashF, slashS, rec, force bool
	for _, f := range argv[1:] {
		l := strings.ToLower(f.s)
		// Switches may be glued (/f/s/q); a path like /tmp/x is not a switch.
		if sws := strings.Split(strings.TrimPrefix(l, "/"), "/"); strings.HasPrefix(l, "/") &&
			!slices.ContainsFunc(sws, func(sw string) bool { return len(sw) > 2 }) {
			slashF = slashF || slices.Contains(sws, "f")
			slashS = slashS || slices.Contains(sws, "s")
		}
		rec = rec || (len(l) > 2 && strings.HasPrefix("-recurse", l))
		force = force || (len(l) > 2 && strings.HasPrefix("-force", l))
	}
	a := texts(argv)
	switch {
	case (base == "del" || base == "erase") && slashF:
		s.find(Deny, DestructiveFileOp, a, in, base+" /f (forced delete)")
	case (base == "rmdir" || base == "rd") && slashS:
		s.find(Deny, DestructiveFileOp, a, in, base+" /s (recursive delete)")
	case rec && force:
		s.find(Deny, DestructiveFileOp, a, in, base+" -Recurse -Force (recursive forced delete)")
	}
}

// findCmd runs find's -exec commands and denies -delete of a whole tree.
func (s *scope) findCmd(argv []field, in inv) {
	filtered := false
	for i := 1; i < len(argv); i++ {
		switch a := argv[i].s; a {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(argv) && argv[j].s != ";" && (argv[j].s != "+" || argv[j-1].s != "{}") {
				j++
			}
			s.run(argv[i+1:j], in.wrapped("find "+a))
			i = j
			filtered = true
		case "-delete":
			if !filtered {
				s.find(Deny, DestructiveFileOp, texts(argv), in, "find -delete without tests (deletes the whole tree)")
			}
		case "-depth", "-maxdepth", "-mindepth", "-xdev", "-mount", "-follow", "-noleaf", "-print", "-ignore_readdir_race", "-daystart":
		default:
			if strings.HasPrefix(a, "-") && len(a) > 2 && i > 1 {
				filtered = true
			}
		}
	}
}

// disk judges programs that can destroy a disk.
func (s *scope) disk(base string, argv []field, in inv) {
	a := texts(argv)
	deny := func(reason string) { s.find(Deny, DiskDestruction, a, in, reason) }
	switch base {
	case "mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "newfs", "blkdiscard":
		deny(base + " destroys a file system")
	case "dd":
		for _, f := range argv[1:] {
			if v, ok := strings.CutPrefix(f.s, "of="); ok && isDevWrite(v) {
				deny("dd writing to device " + v)
			}
		}
	case "shred", "tee", "cp", "mv", "install", "rsync":
		ops := operands(argv, 1)
		if base != "shred" && base != "tee" && len(ops) > 0 {
			ops = ops[len(ops)-1:] // only the destination is written
		}
		for _, f := range ops {
			if isDisk(f.s) || (base == "shred" && isDevWrite(f.s)) {
				deny(base + " writing to block device " + f.s)
			}
		}
	case "wipefs":
		for _, f := range argv[1:] {
			if shortFlag(f, "ao") || longFlag(f, "all", 1) || longFlag(f, "offset", 1) {
				deny("wipefs erasing file system signatures")
				break
			}
		}
	case "format":
		for _, f := range argv[1:] {
			if len(f.s) >= 2 && f.s[1] == ':' && isLetter(f.s[0]) {
				deny("format " + f.s + " (formats a drive)")
			}
		}
	case "diskutil":
		if ops := operands(argv, 1); len(ops) > 0 {
			switch strings.ToLower(ops[0].s) {
			case "erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "partitiondisk", "reformat":
				deny("diskutil " + ops[0].s)
			}
		}
	}
	if strings.HasPrefix(base, "mkfs.") || strings.HasPrefix(base, "newfs_") {
		deny(base + " destroys a file system")
	}
}

// system judges shutdown, reboot and friends.
func (s *scope) system(base string, argv []field, in inv) {
	a := texts(argv)
	deny := func(reason string) { s.find(Deny, SystemControl, a, in, reason) }
	ops := operands(argv, 1)
	switch base {
	case "shutdown", "reboot", "poweroff", "halt":
		for _, f := range argv[1:] {
			if f.s == "-c" || f.s == "--help" {
				return // cancelling a pending shutdown, or help
			}
		}
		deny(base + " stops the machine")
	case "init":
		if len(ops) > 0 {
			switch ops[0].s {
			case "0", "6", "1", "s", "S":
				deny("init " + ops[0].s + " changes the run level")
			}
		}
	case "telinit":
		deny("telinit changes the run level")
	case "systemctl", "loginctl":
		if len(ops) == 0 {
			return
		}
		verb, unit := ops[0].s, ""
		if len(ops) > 1 {
			unit = strings.TrimSuffix(ops[1].s, ".target")
		}
		switch verb {
		case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency", "suspend", "hibernate", "hybrid-sleep":
			deny(base + " " + verb)
		case "isolate", "start":
			switch unit {
			case "poweroff", "reboot", "halt", "kexec", "rescue", "emergency", "runlevel0", "runlevel6":
				deny(base + " " + verb + " " + unit)
			}
		}
	case "kill":
		args := argv[1:]
		if len(args) > 0 && strings.HasPrefix(args[0].s, "-") && args[0].s != "--" {
			switch args[0].s {
			case "-l", "-L", "--list", "--table":
				return
			case "-s", "-n":
				args = args[min(2, len(args)):]
			default:
				args = args[1:] // the signal, e.g. -9 or -1 (SIGHUP)
			}
		}
		for _, f := range args {
			if f.s == "1" || f.s == "-1" {
				deny("kill " + f.s + " signals init or every process")
			}
		}
	case "killall5":
		deny("killall5 signals every process")
	}
}

// redirTarget judges where a redirection points.
func (s *scope) redirTarget(op syntax.RedirOperator, t field) {
	argv := []string{op.String(), t.s}
	in := inv{}
	switch {
	case isNetDev(t.s):
		s.find(Deny, ReverseShell, argv, in, "redirection opens a network connection ("+t.s+")")
		return
	case !t.known && strings.HasPrefix(t.s, "/dev/") && !isDisk(t.s):
		s.find(Ask, Unanalysable, argv, in, "redirection to a /dev path only known at run time ("+t.s+")")
		return
	}
	if op == syntax.RdrIn || op == syntax.DplIn || (op == syntax.DplOut && (isNumber(t.s) || t.s == "-")) {
		return
	}
	switch {
	case isDisk(t.s):
		s.find(Deny, DiskDestruction, argv, in, "redirection writes to block device "+t.s)
	case cleanPath(t.s) == "/proc/sysrq-trigger":
		s.find(Deny, SystemControl, argv, in, "writes to /proc/sysrq-trigger (can reboot or crash the machine)")
	}
}

func cleanPath(p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return p
}

// isDisk matches block devices and raw memory, whose overwrite destroys data.
func isDisk(p string) bool {
	if strings.Contains(strings.ToLower(p), `physicaldrive`) {
		return true
	}
	name, ok := strings.CutPrefix(cleanPath(p), "/dev/")
	if !ok {
		return false
	}
	for _, pre := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "mapper/", "dm-", "md", "loop", "nbd", "mem", "kmem", "port", "block/"} {
		if strings.HasPrefix(name, pre) {
			return true
		}
	}
	return false
}

// isDevWrite matches any device except harmless pseudo-devices (dd of=/dev/null).
func isDevWrite(p string) bool {
	name, ok := strings.CutPrefix(cleanPath(p), "/dev/")
	if !ok {
		return false
	}
	switch name {
	case "null", "zero", "full", "stdout", "stderr", "random", "urandom", "tty":
		return false
	}
	return !strings.HasPrefix(name, "fd/") && !strings.HasPrefix(name, "pts/") && !strings.HasPrefix(name, "shm/")
}

// isNetDev matches bash's network pseudo-files.
func isNetDev(p string) bool {
	c := cleanPath(p)
	return strings.HasPrefix(c, "/dev/tcp/") || strings.HasPrefix(c, "/dev/udp/")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
