package podman

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/sandbox/runner"
)

// Paths inside every sandbox container.
const (
	workspaceDir = "/workspace"
	runnerBinDir = "/.warren/bin" // the host's warren-runner, read-only
	runnerRunDir = "/.warren/run" // the runner's socket, per container
	defaultPath  = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
)

// Labels on every Warren container, so Status and Prune find them.
const (
	labelSandbox  = "io.warren.sandbox"
	labelKey      = "io.warren.key"
	labelWork     = "io.warren.workspace"
	labelNetwork  = "io.warren.network"
	labelOwnerPID = "io.warren.owner-pid"
	labelInstance = "io.warren.instance"
	labelStdio    = "io.warren.stdio" // "1" on StdioCommand's one-program containers
)

// containerSpec is the subset of libpod's SpecGenerator (POST
// /containers/create) Warren sets; field names are libpod's JSON ones.
type containerSpec struct {
	Name               string            `json:"name"`
	Image              string            `json:"image"`
	Hostname           string            `json:"hostname,omitempty"`
	Labels             map[string]string `json:"labels,omitempty"`
	Entrypoint         []string          `json:"entrypoint"`
	Command            []string          `json:"command"`
	Stdin              bool              `json:"stdin,omitempty"`
	Remove             bool              `json:"remove,omitempty"`
	Env                map[string]string `json:"env,omitempty"`
	WorkDir            string            `json:"work_dir,omitempty"`
	User               string            `json:"user,omitempty"`
	Init               bool              `json:"init"`
	ReadOnlyFilesystem bool              `json:"read_only_filesystem"`
	NoNewPrivileges    bool              `json:"no_new_privileges"`
	CapDrop            []string          `json:"cap_drop"`
	Mounts             []mount           `json:"mounts"`
	NetNS              namespace         `json:"netns"`
	UserNS             namespace         `json:"userns"`
	IDMappings         *idMappings       `json:"idmappings,omitempty"`
	ResourceLimits     *resources        `json:"resource_limits,omitempty"`
	Rlimits            []rlimit          `json:"r_limits,omitempty"`
}

type mount struct {
	Destination string   `json:"destination"`
	Type        string   `json:"type"`
	Source      string   `json:"source"`
	Options     []string `json:"options,omitempty"`
}

type namespace struct {
	NSMode string `json:"nsmode,omitempty"`
	Value  string `json:"value,omitempty"`
}

// rlimit.Type is the lower-case name without RLIMIT_ ("nproc"): the
// service prefixes it.
type rlimit struct {
	Type string `json:"type"`
	Hard uint64 `json:"hard"`
	Soft uint64 `json:"soft"`
}

// resources mirrors the OCI runtime spec's LinuxResources subset.
type resources struct {
	Memory *struct {
		Limit int64 `json:"limit"`
	} `json:"memory,omitempty"`
	Pids *struct {
		Limit int64 `json:"limit"`
	} `json:"pids,omitempty"`
	CPU *struct {
		Quota  int64  `json:"quota"`
		Period uint64 `json:"period"`
	} `json:"cpu,omitempty"`
}

// Limits bound one sandbox container. Zero means no limit.
type Limits struct {
	// Memory in bytes (cgroup).
	Memory int64
	// Pids caps processes: a cgroup pids limit where the host enforces it,
	// and RLIMIT_NPROC (counted per container user namespace) when rootless,
	// which contains a fork bomb even on cgroup v1.
	Pids int64
	// CPUs is a CFS quota in CPUs (1.5 = one and a half).
	CPUs float64
	// TmpSize bounds the /tmp tmpfs in bytes, which otherwise may grow to
	// half the host's memory.
	TmpSize int64
}

// minDataLimit is the smallest RLIMIT_DATA the memory fallback sets: the
// runner and the container runtime's own start-up live under it too.
const minDataLimit = 256 << 20

// DefaultLimits are generous for builds and tests, tight enough to stop a
// runaway command from taking the machine down.
var DefaultLimits = Limits{Memory: 4 << 30, Pids: 1024, CPUs: 0, TmpSize: 1 << 30}

// enforcement says which cgroup limits the service applies.
type enforcement struct{ memory, pids, cpu bool }

// enforced reads it from /info: rootful Podman and rootless on cgroup v2
// with delegated controllers apply limits; rootless on cgroup v1 ignores
// them (with only a warning in the create response).
func enforced(info hostInfo) enforcement {
	if !info.Host.Security.Rootless {
		return enforcement{true, true, true}
	}
	if info.Host.CgroupVersion != "v2" {
		return enforcement{}
	}
	var e enforcement
	for _, c := range info.Host.CgroupControllers {
		switch c {
		case "memory":
			e.memory = true
		case "pids":
			e.pids = true
		case "cpu":
			e.cpu = true
		}
	}
	return e
}

// specInput is what one container is built from.
type specInput struct {
	Name      string
	Image     string
	Labels    map[string]string
	Workspace string // host dir for /workspace; "" gives a tmpfs
	RunDir    string // host dir for runnerRunDir
	BinDir    string // host dir holding warren-runner
	Network   bool
	Rootless  bool
	User      string // rootful only: uid:gid to run as (the workspace owner)
	// KeepID is the explicit keep-id mapping (see keepIDMapping); nil
	// falls back to Podman's keep-id mode.
	KeepID   *keepID
	Limits   Limits
	Enforced enforcement

	// Program, when set, is the container's only process (StdioCommand);
	// there is then no runner and no RunDir/BinDir mount.
	Program []string
	// WorkspaceAt is where Workspace is mounted (default /workspace);
	// WorkDir the working directory (default WorkspaceAt).
	WorkspaceAt, WorkDir string
	// ReadOnly are host paths mounted read-only at the same path.
	ReadOnly []string
	// Env is added to the default PATH.
	Env map[string]string
	// Stdin keeps the program's stdin open for an attached client;
	// Remove has the service delete the container when it exits.
	Stdin, Remove bool
}

// buildSpec turns in into a create request with Warren's fixed security
// settings, and returns the warnings to show for limits the host ignores.
func buildSpec(in specInput) (*containerSpec, []string) {
	tmpOpts := []string{"rw", "nosuid", "nodev", "U"} // U: owned by the keep-id user
	if in.Limits.TmpSize > 0 {
		tmpOpts = append(tmpOpts, "size="+strconv.FormatInt(in.Limits.TmpSize, 10))
	}
	wsAt := cmp.Or(in.WorkspaceAt, workspaceDir)
	// nosuid: a setuid file an agent makes in the container must not run
	// as its owner on the host; nodev: no device nodes through it.
	ws := mount{Destination: wsAt, Type: "bind", Source: in.Workspace, Options: []string{"rbind", "rw", "nosuid", "nodev"}}
	if in.Workspace == "" {
		ws = mount{Destination: wsAt, Type: "tmpfs", Source: "tmpfs", Options: tmpOpts}
	}
	entry := []string{runnerBinDir + "/" + runnerBinary}
	args := []string{"-socket", runnerRunDir + "/" + runner.SocketName}
	mounts := []mount{ws, {Destination: "/tmp", Type: "tmpfs", Source: "tmpfs", Options: tmpOpts}}
	if len(in.Program) > 0 {
		entry, args = in.Program[:1], in.Program[1:]
	} else {
		mounts = append(mounts,
			mount{Destination: runnerRunDir, Type: "bind", Source: in.RunDir, Options: []string{"rbind", "rw", "nosuid", "nodev"}},
			mount{Destination: runnerBinDir, Type: "bind", Source: in.BinDir, Options: []string{"rbind", "ro", "nosuid", "nodev"}})
	}
	for _, p := range in.ReadOnly {
		// bind, not rbind: mounts below p (a FUSE share) stay out, and ro
		// is not recursive on every kernel.
		mounts = append(mounts, mount{Destination: p, Type: "bind", Source: p, Options: []string{"bind", "ro", "nosuid", "nodev"}})
	}
	env := map[string]string{"PATH": defaultPath}
	maps.Copy(env, in.Env)
	s := &containerSpec{
		Name: in.Name, Image: in.Image, Hostname: "sandbox", Labels: in.Labels,
		Entrypoint: entry, Command: args, Env: env,
		WorkDir: cmp.Or(in.WorkDir, wsAt),
		User:    in.User,
		// Init reaps orphans: the runner kills each command's group, and
		// whatever those leave behind is re-parented to PID 1.
		Init:               true,
		ReadOnlyFilesystem: true,
		NoNewPrivileges:    true,
		CapDrop:            []string{"ALL"},
		Mounts:             mounts,
		NetNS:              namespace{NSMode: "none"},
		Stdin:              in.Stdin,
		Remove:             in.Remove,
	}
	if in.Network {
		s.NetNS = namespace{} // the service's default: slirp4netns rootless, bridge rootful
	}
	if in.Rootless {
		// keep-id: the container user is the service's user, so files in
		// /workspace stay the user's on the host.
		s.UserNS = namespace{NSMode: "keep-id"}
		s.User = ""
		if k := in.KeepID; k != nil {
			s.UserNS = namespace{NSMode: "private"}
			s.IDMappings = &idMappings{UIDMap: k.uids, GIDMap: k.gids}
			s.User = strconv.Itoa(k.uid) + ":" + strconv.Itoa(k.gid)
		}
	}
	return s, applyLimits(s, in)
}

func applyLimits(s *containerSpec, in specInput) []string {
	var warn []string
	lim, e := in.Limits, in.Enforced
	r := &resources{}
	if lim.Memory > 0 {
		if e.memory {
			r.Memory = &struct {
				Limit int64 `json:"limit"`
			}{lim.Memory}
		} else {
			// Per process instead of per container: RLIMIT_DATA counts the
			// heap and private writable mappings, not reserved address
			// space (which node and Go programs take plenty of). The
			// runner sets it once the runtime has started the container
			// (set on the container, a small one stops runc's own init);
			// a stdio program has no runner, so the container gets it.
			// The runner itself lives under the cap, hence a floor.
			data := max(lim.Memory, minDataLimit)
			if len(in.Program) == 0 {
				s.Command = append(s.Command, "-rlimit-data", strconv.FormatInt(data, 10))
			} else {
				s.Rlimits = append(s.Rlimits, rlimit{Type: "data", Hard: uint64(data), Soft: uint64(data)}) //nolint:gosec // positive
			}
			warn = append(warn, fmt.Sprintf("memory: this host cannot cap the container (rootless Podman without the cgroup v2 memory controller); "+
				"each process is capped at %d MiB of data instead (RLIMIT_DATA)", data>>20))
		}
	}
	if lim.CPUs > 0 {
		if e.cpu {
			r.CPU = &struct {
				Quota  int64  `json:"quota"`
				Period uint64 `json:"period"`
			}{int64(lim.CPUs * 100000), 100000}
		} else {
			warn = append(warn, fmt.Sprintf("CPU limit (%g CPUs) not enforced by this host (rootless Podman without the cgroup v2 cpu controller)", lim.CPUs))
		}
	}
	if lim.Pids > 0 {
		if e.pids {
			r.Pids = &struct {
				Limit int64 `json:"limit"`
			}{lim.Pids}
		}
		if in.Rootless {
			// Own user namespace per container: the count is this sandbox's
			// alone, not every process of the host user.
			s.Rlimits = append(s.Rlimits, rlimit{Type: "nproc", Hard: uint64(lim.Pids), Soft: uint64(lim.Pids)})
		} else if !e.pids {
			warn = append(warn, fmt.Sprintf("process limit (%d) not enforced by this host", lim.Pids))
		}
	}
	if r.Memory != nil || r.CPU != nil || r.Pids != nil {
		s.ResourceLimits = r
	}
	return warn
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// containerName makes a readable, unique Podman name from a sandbox key.
func containerName(key, suffix string) string {
	k := strings.Trim(unsafeName.ReplaceAllString(key, "-"), "-._")
	if len(k) > 40 {
		k = k[:40]
	}
	if k == "" {
		k = "default"
	}
	return "warren-" + k + "-" + suffix
}
