package podman

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"runtime"
	"sort"
	"strings"
	"time"
)

// ImageOptions configures BuildImage.
type ImageOptions struct {
	// Image is the reference to create; empty means the manager's image.
	Image string
	// From pulls this image (a registry must be reachable) and tags it as
	// Image, instead of building offline.
	From string
	// Busybox is a statically linked busybox for the offline build;
	// default /bin/busybox or /usr/bin/busybox (Debian's busybox-static).
	Busybox string
}

// ImageReport says what BuildImage made.
type ImageReport struct {
	Image  string `json:"image"`
	ID     string `json:"id"`
	Source string `json:"source"`
}

// imageChanges are the Dockerfile-style settings of the offline image.
var imageChanges = []string{
	`CMD ["/bin/sh"]`,
	"ENV PATH=" + defaultPath,
	"WORKDIR " + workspaceDir,
	"LABEL io.warren.image=busybox-static",
}

// BuildImage makes the sandbox image: offline from busybox-static (a root
// filesystem with /bin/sh and every applet, /tmp 1777, /workspace and an
// /etc/passwd, imported into Podman), or pulled with From. This is
// `warren sandbox image build [--from IMAGE]`.
func (m *Manager) BuildImage(ctx context.Context, opts ImageOptions) (ImageReport, error) {
	s, err := m.session(ctx)
	if err != nil {
		return ImageReport{}, err
	}
	return m.buildImage(ctx, s, opts)
}

func (m *Manager) buildImage(ctx context.Context, s *session, opts ImageOptions) (ImageReport, error) {
	ref := opts.Image
	if ref == "" {
		ref = m.opts.Image
	}
	if opts.From != "" {
		id, err := s.api.pull(ctx, opts.From)
		if err != nil {
			return ImageReport{}, err
		}
		repo, tag := splitRef(ref)
		if err := s.api.tag(ctx, id, repo, tag); err != nil {
			return ImageReport{}, fmt.Errorf("tag %s as %s: %w", opts.From, ref, err)
		}
		return ImageReport{Image: ref, ID: shortID(id), Source: "pulled " + opts.From}, nil
	}
	if runtime.GOOS != "linux" {
		return ImageReport{}, errors.New("the offline image build runs busybox and needs Linux: use --from IMAGE")
	}
	bb, err := findBusybox(opts.Busybox)
	if err != nil {
		return ImageReport{}, err
	}
	applets, err := busyboxApplets(ctx, bb)
	if err != nil {
		return ImageReport{}, err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeRootfs(pw, bb, applets)) }()
	id, err := s.api.importImage(ctx, pr, ref, imageChanges)
	_ = pr.CloseWithError(errors.New("import finished")) // unblocks the writer on failure
	if err != nil {
		return ImageReport{}, fmt.Errorf("import %s: %w", ref, err)
	}
	m.log.Info("sandbox: built image", "image", ref, "id", shortID(id), "busybox", bb)
	return ImageReport{Image: ref, ID: shortID(id), Source: "busybox-static " + bb}, nil
}

// splitRef splits "repo:tag" (tag defaults to latest; a registry port is
// not a tag).
func splitRef(ref string) (string, string) {
	i := strings.LastIndex(ref, ":")
	if i < 0 || strings.Contains(ref[i:], "/") {
		return ref, "latest"
	}
	return ref[:i], ref[i+1:]
}

func findBusybox(explicit string) (string, error) {
	cands := []string{"/bin/busybox", "/usr/bin/busybox"}
	if explicit != "" {
		cands = []string{explicit}
	}
	for _, p := range cands {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if err := checkRunner(p); err != nil {
			return "", fmt.Errorf("busybox %s must be static (Debian: apt-get install busybox-static): %w", p, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("no busybox at %v (Debian: apt-get install busybox-static)", cands)
}

// busyboxApplets lists the applets with their install paths (bin/sh,
// usr/bin/env…).
func busyboxApplets(ctx context.Context, bb string) ([]string, error) {
	out, err := exec.CommandContext(ctx, bb, "--list-full").Output()
	if err != nil {
		out, err = exec.CommandContext(ctx, bb, "--list").Output()
		if err != nil {
			return nil, fmt.Errorf("%s --list: %w", bb, err)
		}
		names := strings.Fields(string(out))
		for i, n := range names {
			names[i] = "bin/" + n
		}
		return names, nil
	}
	return strings.Fields(string(out)), nil
}

// writeRootfs writes the image's root filesystem as a tar stream: busybox
// at /bin/busybox, a symlink per applet, the usual directories, and a
// minimal /etc (Podman adds the keep-id user to /etc/passwd itself).
func writeRootfs(w io.Writer, busybox string, applets []string) error {
	bin, err := os.ReadFile(busybox)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	now := time.Now()
	dirs := map[string]int64{
		"bin": 0o755, "sbin": 0o755, "usr": 0o755, "usr/bin": 0o755, "usr/sbin": 0o755, "usr/local": 0o755,
		"usr/local/bin": 0o755, "etc": 0o755, "root": 0o700, "home": 0o755, "proc": 0o555, "sys": 0o555,
		"dev": 0o755, "run": 0o755, "var": 0o755, "tmp": 0o1777, "var/tmp": 0o1777, "workspace": 0o755,
	}
	var links []string
	for _, a := range applets {
		a = path.Clean(strings.TrimPrefix(a, "/"))
		if a == "bin/busybox" || strings.HasPrefix(a, "..") || a == "." {
			continue
		}
		links = append(links, a)
		for d := path.Dir(a); d != "."; d = path.Dir(d) {
			if _, ok := dirs[d]; !ok {
				dirs[d] = 0o755
			}
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names) // parents before children
	for _, d := range names {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: dirs[d], ModTime: now}); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		mode int64
		data []byte
	}{
		{"bin/busybox", 0o755, bin},
		{"etc/passwd", 0o644, []byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n")},
		{"etc/group", 0o644, []byte("root:x:0:\nnobody:x:65534:\n")},
	}
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: now}); err != nil {
			return err
		}
		if _, err := io.Copy(tw, bytes.NewReader(f.data)); err != nil {
			return err
		}
	}
	sort.Strings(links)
	for _, l := range links {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: l, Linkname: "/bin/busybox", Mode: 0o777, ModTime: now}); err != nil {
			return err
		}
	}
	return tw.Close()
}
