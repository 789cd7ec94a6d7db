package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// output classifies what echo, printf and cat-with-heredoc write: known text
// (analysed if piped into a shell), text built at run time, or escapes.
func (s *scope) output(base string, argv []field, in inv, st *stage) {
	args := argv[1:]
	switch base {
	case "echo":
		for len(args) > 0 && args[0].known && len(args[0].s) > 1 && args[0].s[0] == '-' &&
			strings.Trim(args[0].s[1:], "neE") == "" {
			args = args[1:]
		}
		j := joinFields(args)
		switch {
		case !j.known:
			st.out |= fDynamic
		case strings.Contains(j.s, `\`):
			// echo -e '\x72\x6d', or dash's echo (sh on Debian), which
			// decodes '\0162' without -e.
			st.out |= fDecode
		default:
			st.text, st.hasText = j.s+"\n", true
		}
	case "printf":
		if len(args) > 0 && args[0].s == "--" {
			args = args[1:]
		}
		j := joinFields(args)
		switch {
		case !j.known:
			st.out |= fDynamic
		case encodedEscape(j.s):
			st.out |= fDecode // printf '\x72\x6d …' or '%b'
		case len(args) == 1 && !strings.Contains(args[0].s, "%"):
			r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`)
			st.text, st.hasText = r.Replace(args[0].s), true
		}
	case "cat":
		if t := in.r.stdinText; len(args) == 0 && in.r.stdin != nil && in.r.stdin.Op != syntax.RdrIn {
			if t.known {
				st.text, st.hasText = t.s, true
			} else {
				st.out |= fDynamic | t.sub&taint
			}
		}
	}
}

// encodedEscape reports hex, octal or unicode escapes that hide text.
func encodedEscape(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && strings.IndexByte("xuU01234567", s[i+1]) >= 0 {
			return true
		}
	}
	return false
}

// decoder marks programs that decode obfuscated text.
func (s *scope) decoder(base string, argv []field, st *stage) {
	dec := false
	switch base {
	case "base64", "base32", "basenc":
		for _, f := range argv[1:] {
			dec = dec || shortFlag(f, "dD") || longFlag(f, "decode", 1)
		}
	case "xxd":
		for _, f := range argv[1:] {
			dec = dec || shortFlag(f, "r") || f.s == "-revert"
		}
	case "uudecode":
		dec = true
	case "openssl":
		if ops := operands(argv, 1); len(ops) > 0 {
			switch ops[0].s {
			case "base64", "enc":
				for _, f := range argv[1:] {
					dec = dec || f.s == "-d" || f.s == "-decode"
				}
			case "s_client":
				st.out |= fNetwork
				st.in |= fNetSink
			}
		}
	}
	if dec {
		st.out |= fDecode
	}
}

// network handles netcat-like tools: their output is network input, their
// input goes to a peer, and -e/-c or socat exec: hand a program to the peer.
func (s *scope) network(base string, argv []field, in inv, st *stage) {
	st.out |= fNetwork
	st.in |= fNetSink
	a := texts(argv)
	for _, f := range argv[1:] {
		l := strings.ToLower(f.s)
		switch {
		case base == "socat" && (strings.Contains(l, "exec:") || strings.Contains(l, "system:")):
			s.find(Deny, ReverseShell, a, in, "socat "+f.s+" gives a network peer a program")
			return
		case base != "socat" && base != "telnet" && (shortFlag(f, "ec") || longFlag(f, "exec", 2) ||
			longFlag(f, "sh-exec", 2) || longFlag(f, "lua-exec", 2)):
			s.find(Deny, ReverseShell, a, in, base+" "+f.s+" gives a network peer a program")
			return
		}
	}
}

func isDownloader(base string) bool {
	switch base {
	case "curl", "wget", "wget2", "fetch", "aria2c", "http", "https", "xh", "xhs", "lwp-request", "lwp-download",
		"lynx", "w3m", "links", "elinks", "tftp", "axel", "invoke-webrequest", "iwr", "invoke-restmethod", "irm",
		"certutil", "bitsadmin":
		return true
	}
	return false
}

// downloads records the files a downloader writes, so running them later
// is remote code execution (curl -o x.sh URL && sh x.sh).
func (s *scope) downloads(base string, argv []field) {
	var outs, urls []string
	remote := base == "wget" || base == "wget2" || base == "aria2c" || base == "fetch"
	outShort, argShort := byte('o'), "dHuXAexTwmrbcEKYyzCFUQ"
	if base != "curl" {
		outShort, argShort = 'O', "oaitTwUeBQlARDXIdP"
	}
	if base == "aria2c" {
		outShort = 'o'
	}
	for i := 1; i < len(argv); i++ {
		v := argv[i].s
		switch {
		case v == "--output" || v == "--output-document" || v == "--out":
			if i+1 < len(argv) {
				i++
				outs, remote = append(outs, argv[i].s), false
			}
		case strings.HasPrefix(v, "--output=") || strings.HasPrefix(v, "--output-document=") || strings.HasPrefix(v, "--out="):
			_, o, _ := strings.Cut(v, "=")
			outs, remote = append(outs, o), false
		case v == "--remote-name" || v == "--remote-name-all":
			remote = true
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			for j := 1; j < len(v); j++ {
				c := v[j]
				if c == 'O' && base == "curl" {
					remote = true
					continue
				}
				if c != outShort && strings.IndexByte(argShort, c) < 0 {
					continue
				}
				val := v[j+1:]
				if val == "" && i+1 < len(argv) {
					i++
					val = argv[i].s
				}
				if c == outShort {
					outs, remote = append(outs, val), false
				}
				break
			}
		case !strings.HasPrefix(v, "-"):
			urls = append(urls, v)
		}
	}
	if remote {
		for _, u := range urls {
			outs = append(outs, urlBase(u))
		}
	}
	for _, o := range outs {
		if o != "-" && o != "/dev/stdout" && o != "" {
			s.wrote(lit(o), false, "", false, fDownload)
		}
	}
}

// urlBase is the file name a downloader saves a URL as.
func urlBase(u string) string {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	if i := strings.LastIndexByte(u, '/'); i >= 0 && i+1 < len(u) {
		return u[i+1:]
	}
	return "index.html"
}
