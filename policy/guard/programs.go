package guard

import "strings"

// Class is what a program does, which decides whether it runs without
// asking. The data is below, one list per class; a program missing from
// every list is Unknown, which asks on the host.
type Class uint8

const (
	// Unknown is a program Warren knows nothing about: it asks on the host
	// and runs in the sandbox.
	Unknown Class = iota
	// ReadOnly programs read files and print: they run.
	ReadOnly
	// Build programs build, test, format and package code: they run.
	Build
	// Writer programs change the files named on their command line: they
	// run when every such file is in the workspace or a temp folder.
	Writer
	// Network programs talk to other machines: they ask on the host.
	Network
	// CodeRunner programs run code they are given (interpreters, REPLs,
	// package runners that fetch and run code): they ask on the host.
	CodeRunner
	// Privilege programs change who or where a program runs, load or
	// debug other programs, or keep them running detached (namespaces,
	// privileges, loaders, debuggers, terminal multiplexers): they ask.
	Privilege
	// Shell is a shell: Warren runs its script itself, command by command.
	Shell
)

// String is the class's name in reasons.
func (c Class) String() string {
	return [...]string{"unknown program", "read-only", "build tool", "file writer", "network tool", "code runner",
		"privilege, namespace, loader or debugger tool", "shell"}[c]
}

var classes = map[string]Class{}

func init() {
	for class, names := range map[Class]string{
		ReadOnly: `ls dir vdir cat tac head tail wc grep egrep fgrep rg ag ack stat file find fd fdfind locate
			pwd date cal echo printf true false test [ sleep seq yes which whereis type hash command env printenv
			diff diff3 cmp comm sort uniq cut tr jq yq column nl fold fmt pr paste join expand unexpand rev
			basename dirname realpath readlink id whoami groups uname hostname uptime nproc arch getconf
			du df free lsblk lscpu lsof ps pgrep top htop tree less more most bat batcat
			xxd od hexdump strings base32 base64 basenc md5sum sha1sum sha224sum sha256sum sha384sum sha512sum
			b2sum cksum sum shasum awk gawk mawk nawk sed numfmt factor expr bc dc tput clear
			man info apropos whatis tldr column iconv
			zcat bzcat xzcat zstdcat lz4cat zless zgrep bzgrep xzgrep zdiff
			stty tty logname users who w last nm objdump readelf size addr2line c++filt
			pip-list go-version node-version`,
		Build: `git go gofmt goimports gopls golangci-lint staticcheck govulncheck
			make gmake cmake ninja meson bazel bazelisk scons autoconf automake autoreconf configure libtool
			gcc g++ cc c++ clang clang++ ld as ar ranlib strip pkg-config cargo rustc rustfmt rustup clippy-driver
			npm pnpm yarn tsc eslint prettier vite vitest jest mocha tsx esbuild webpack rollup biome svelte-check
			pip pip3 poetry uv pipenv pytest tox ruff black isort mypy flake8 pylint
			javac java mvn gradle gradlew ant kotlinc dotnet msbuild
			gem bundle bundler rake rspec composer
			protoc buf sqlc swag wails templ air sqlite3
			shellcheck shfmt hadolint yamllint markdownlint actionlint
			patch diffstat gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd lz4 tar zip unzip 7z 7za`,
		Writer: `cp mv rm rmdir mkdir touch ln chmod chown chgrp install truncate shred mktemp split csplit
			dd rename unlink sync tee`,
		Network: `curl wget ssh scp sftp rsync nc ncat netcat socat telnet ftp tftp lftp ping ping6 traceroute
			dig nslookup host whois ip ifconfig route netstat ss nmap tcpdump aria2c http https xh gh hub aws gcloud
			az kubectl helm docker podman terraform ansible ansible-playbook mosh`,
		CodeRunner: `python python2 python3 pypy pypy3 perl ruby irb node nodejs deno bun php lua luajit
			rscript r julia ghci runghc guile sbcl clisp racket tclsh wish osascript pwsh powershell
			npx bunx pnpx pipx uvx expect jshell groovy scala erl elixir iex
			vim vi nvim ex view emacs nano ed`,
		Privilege: `sudo doas su runuser pkexec run0 gosu setpriv setarch linux32 linux64 prlimit fakeroot
			fakechroot sg newgrp chroot unshare nsenter capsh systemd-run systemd-nspawn firejail bwrap
			ld.so ld-linux.so.2 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 ld-musl-x86_64.so.1
			gdb lldb ldd ltrace strace valgrind perf rr tmux screen byobu dtach abduco
			at batch crontab systemctl service launchctl insmod rmmod modprobe mount umount losetup
			chattr setfacl setcap passwd useradd userdel usermod visudo kill killall pkill`,
		Shell: `sh bash dash ash zsh ksh mksh pdksh yash posh rbash`,
	} {
		for _, n := range strings.Fields(names) {
			classes[n] = class
		}
	}
}

// ClassOf returns the class of a program by its name (the last element of
// its path): python3.12 is python3's, ld-linux-*.so.* a loader's.
func ClassOf(name string) Class {
	base := name
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if c, ok := classes[base]; ok {
		return c
	}
	switch {
	case strings.HasPrefix(base, "ld-") && strings.Contains(base, ".so"):
		return Privilege
	case versioned(base, "python", "pypy", "perl", "ruby", "php", "lua", "node", "tclsh", "guile"):
		return CodeRunner
	case strings.HasPrefix(base, "gcc-"), strings.HasPrefix(base, "g++-"), strings.HasPrefix(base, "clang-"):
		return Build
	}
	return Unknown
}

// versioned reports whether base is one of names followed by a version
// only: python3.12, php8.2, lua5.4, node20.
func versioned(base string, names ...string) bool {
	for _, n := range names {
		if rest, ok := strings.CutPrefix(base, n); ok && rest != "" && strings.Trim(rest, "0123456789.-") == "" {
			return true
		}
	}
	return false
}
