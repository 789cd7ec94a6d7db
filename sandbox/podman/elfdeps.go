package podman

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// defaultLdConf is the host loader's configuration.
const defaultLdConf = "/etc/ld.so.conf"

// multiarch is Debian's library directory triplet per machine.
var multiarch = map[elf.Machine]string{
	elf.EM_X86_64: "x86_64-linux-gnu", elf.EM_AARCH64: "aarch64-linux-gnu", elf.EM_386: "i386-linux-gnu",
	elf.EM_ARM: "arm-linux-gnueabihf", elf.EM_RISCV: "riscv64-linux-gnu", elf.EM_PPC64: "powerpc64le-linux-gnu",
	elf.EM_S390: "s390x-linux-gnu",
}

// libraries mounts the ELF loader of bin and every shared library it needs,
// transitively, at the paths the host's loader would use. Reading the ELF
// headers, not running ldd, keeps an untrusted binary from running on the
// host.
func (r *resolver) libraries(bin string) error {
	f, err := elf.Open(bin)
	if err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	defer func() { _ = f.Close() }()
	var interp string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, err := io.ReadAll(p.Open())
			if err != nil {
				return fmt.Errorf("%s: PT_INTERP: %w", bin, err)
			}
			interp = strings.TrimRight(string(b), "\x00")
		}
	}
	if interp == "" {
		return nil // static
	}
	r.mount(interp)
	return r.needed(bin, f, f.Class, f.Machine)
}

// needed resolves obj's DT_NEEDED entries, then theirs.
func (r *resolver) needed(obj string, f *elf.File, class elf.Class, machine elf.Machine) error {
	libs, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", obj, err)
	}
	runpath, _ := f.DynString(elf.DT_RUNPATH)
	rpath, _ := f.DynString(elf.DT_RPATH)
	var dirs []string
	if len(runpath) == 0 { // RPATH counts only without RUNPATH
		dirs = append(dirs, expandOrigin(rpath, obj)...)
	}
	dirs = append(dirs, expandOrigin(runpath, obj)...)
	dirs = append(dirs, r.searchDirs(class, machine)...)
	for _, lib := range libs {
		if r.seen[lib] {
			continue
		}
		r.seen[lib] = true
		path, lf := findLibrary(lib, dirs, class, machine)
		if lf == nil {
			return fmt.Errorf("shared library %s needed by %s not found on this host", lib, obj)
		}
		r.mount(path)
		if d := filepath.Dir(path); !slices.Contains(r.libDirs, d) {
			r.libDirs = append(r.libDirs, d)
		}
		err := r.needed(path, lf, class, machine)
		_ = lf.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// findLibrary returns the first lib in dirs built for the same class and
// machine (a 32-bit copy in a shared directory is skipped, as ld.so does).
func findLibrary(lib string, dirs []string, class elf.Class, machine elf.Machine) (string, *elf.File) {
	if strings.Contains(lib, "/") {
		dirs, lib = []string{filepath.Dir(lib)}, filepath.Base(lib)
	}
	for _, d := range dirs {
		p := filepath.Join(d, lib)
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		if f.Class == class && f.Machine == machine {
			return p, f
		}
		_ = f.Close()
	}
	return "", nil
}

// expandOrigin splits a DT_RPATH/DT_RUNPATH list, with $ORIGIN replaced by
// obj's directory (the mounts keep host paths, so it means the same inside).
func expandOrigin(list []string, obj string) []string {
	var out []string
	origin := filepath.Dir(obj)
	if real, err := filepath.EvalSymlinks(obj); err == nil {
		origin = filepath.Dir(real)
	}
	for _, l := range list {
		for _, d := range strings.Split(l, ":") {
			d = strings.NewReplacer("${ORIGIN}", origin, "$ORIGIN", origin).Replace(d)
			if filepath.IsAbs(d) {
				out = append(out, filepath.Clean(d))
			}
		}
	}
	return out
}

// searchDirs is the loader's search after the run paths: the directories of
// ld.so.conf (which ld.so.cache is built from), then the defaults.
func (r *resolver) searchDirs(class elf.Class, machine elf.Machine) []string {
	if r.search == nil {
		conf := r.in.LdConf
		if conf == "" {
			conf = defaultLdConf
		}
		dirs := ldConfDirs(conf, 0)
		if t := multiarch[machine]; t != "" {
			dirs = append(dirs, "/lib/"+t, "/usr/lib/"+t)
		}
		if class == elf.ELFCLASS64 {
			dirs = append(dirs, "/lib64", "/usr/lib64")
		}
		dirs = append(dirs, "/lib", "/usr/lib")
		for _, d := range dirs {
			if !slices.Contains(r.search, d) {
				r.search = append(r.search, d)
			}
		}
	}
	return r.search
}

// ldConfDirs reads an ld.so.conf: one directory per line, `include GLOB`
// (relative to the file's directory), # comments.
func ldConfDirs(path string, depth int) []string {
	b, err := os.ReadFile(path) //nolint:gosec // the host's loader configuration
	if err != nil || depth > 8 {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if pattern, ok := strings.CutPrefix(line, "include"); ok && pattern != "" && (pattern[0] == ' ' || pattern[0] == '\t') {
			for _, g := range strings.Fields(pattern) {
				if !filepath.IsAbs(g) {
					g = filepath.Join(filepath.Dir(path), g)
				}
				matches, _ := filepath.Glob(g)
				slices.Sort(matches)
				for _, m := range matches {
					out = append(out, ldConfDirs(m, depth+1)...)
				}
			}
			continue
		}
		line, _, _ = strings.Cut(line, "=") // old "dir=TYPE" syntax
		if filepath.IsAbs(line) {
			out = append(out, filepath.Clean(line))
		}
	}
	return out
}
