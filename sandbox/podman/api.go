package podman

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/containers/podman/v5/pkg/bindings"
	"github.com/containers/podman/v5/pkg/errorhandling"
)

// api is the handful of libpod REST endpoints Warren uses. It goes through
// bindings.Connection (unix/ssh/tcp dialling, the version handshake, error
// decoding) but not the bindings' endpoint packages (containers, images,
// system, specgen): those import containers/image and containers/storage,
// whose gpgme and btrfs cgo code breaks a plain `go build ./...` unless
// every build passes containers_image_openpgp,exclude_graphdriver_btrfs.
// The JSON shapes below are the libpod API's, stable from 4.0 to 5.x.
type api struct {
	conn    *bindings.Connection
	version string
}

// dial connects to uri and checks the service's API version.
func dial(ctx context.Context, ep Endpoint) (*api, error) {
	cctx, err := bindings.NewConnectionWithOptions(ctx, bindings.Options{URI: ep.URI, Identity: ep.Identity, Machine: ep.Machine})
	if err != nil {
		return nil, err
	}
	conn, err := bindings.GetClient(cctx)
	if err != nil {
		return nil, err
	}
	return &api{conn: conn, version: bindings.ServiceVersion(cctx).String()}, nil
}

// hostInfo is the part of GET /info Warren reads.
type hostInfo struct {
	Host struct {
		Security struct {
			Rootless bool `json:"rootless"`
		} `json:"security"`
		CgroupVersion     string   `json:"cgroupVersion"`
		CgroupControllers []string `json:"cgroupControllers"`
		OCIRuntime        struct {
			Name string `json:"name"`
		} `json:"ociRuntime"`
		// IDMappings is the rootless user namespace: container_id 0 is the
		// service's user, the rest its subordinate ranges.
		IDMappings struct {
			UIDMap []idMap `json:"uidmap"`
			GIDMap []idMap `json:"gidmap"`
		} `json:"idMappings"`
	} `json:"host"`
	Version struct {
		Version string `json:"Version"`
	} `json:"version"`
}

// listedContainer is one entry of GET /containers/json.
type listedContainer struct {
	ID      string            `json:"Id"`
	Names   []string          `json:"Names"`
	Labels  map[string]string `json:"Labels"`
	State   string            `json:"State"`
	Created json.RawMessage   `json:"Created"`
}

// isNotFound reports a 404 from the service.
func isNotFound(err error) bool {
	var em *errorhandling.ErrorModel
	return errors.As(err, &em) && em.Code() == http.StatusNotFound
}

// do sends one request and decodes a JSON answer into out (nil: ignore it).
func (a *api) do(ctx context.Context, method, endpoint string, query url.Values, body io.Reader, out any, path ...string) error {
	var hdr http.Header
	if body != nil {
		hdr = http.Header{"Content-Type": {"application/json"}}
	}
	resp, err := a.conn.DoRequest(ctx, body, method, endpoint, query, hdr, path...)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	return resp.Process(out)
}

func (a *api) info(ctx context.Context) (hostInfo, error) {
	var info hostInfo
	err := a.do(ctx, http.MethodGet, "/info", nil, nil, &info)
	return info, err
}

// create makes a container from spec and returns its id and the service's
// warnings (e.g. limits it will ignore).
func (a *api) create(ctx context.Context, spec *containerSpec) (string, []string, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return "", nil, err
	}
	var out struct {
		ID       string   `json:"Id"`
		Warnings []string `json:"Warnings"`
	}
	if err := a.do(ctx, http.MethodPost, "/containers/create", nil, bytes.NewReader(b), &out); err != nil {
		return "", nil, err
	}
	return out.ID, out.Warnings, nil
}

func (a *api) start(ctx context.Context, id string) error {
	return a.do(ctx, http.MethodPost, "/containers/%s/start", nil, nil, nil, id)
}

// remove kills and deletes a container; one already gone is not an error.
func (a *api) remove(ctx context.Context, id string) error {
	q := url.Values{"force": {"true"}, "timeout": {"0"}, "v": {"true"}}
	err := a.do(ctx, http.MethodDelete, "/containers/%s", q, nil, nil, id)
	if isNotFound(err) {
		return nil
	}
	return err
}

// containerState is the part of GET /containers/{id}/json Warren reads.
type containerState struct {
	Status   string `json:"Status"`
	ExitCode int    `json:"ExitCode"`
	Pid      int    `json:"Pid"` // the init's host pid
}

func (a *api) inspect(ctx context.Context, id string) (containerState, error) {
	var out struct {
		State containerState `json:"State"`
	}
	err := a.do(ctx, http.MethodGet, "/containers/%s/json", nil, nil, &out, id)
	return out.State, err
}

// list returns all containers (running or not) carrying label (k=v).
func (a *api) list(ctx context.Context, label string) ([]listedContainer, error) {
	filters, _ := json.Marshal(map[string][]string{"label": {label}})
	var out []listedContainer
	err := a.do(ctx, http.MethodGet, "/containers/json", url.Values{"all": {"true"}, "filters": {string(filters)}}, nil, &out)
	return out, err
}

func (a *api) imageExists(ctx context.Context, ref string) (bool, error) {
	err := a.do(ctx, http.MethodGet, "/images/%s/exists", nil, nil, nil, ref)
	switch {
	case err == nil:
		return true, nil
	case isNotFound(err):
		return false, nil
	}
	return false, err
}

// importImage creates image ref from a rootfs tarball.
func (a *api) importImage(ctx context.Context, rootfs io.Reader, ref string, changes []string) (string, error) {
	q := url.Values{"reference": {ref}, "changes": changes, "message": {"warren sandbox image build"}}
	resp, err := a.conn.DoRequest(ctx, rootfs, http.MethodPost, "/images/import", q, http.Header{"Content-Type": {"application/x-tar"}})
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		ID string `json:"Id"`
	}
	return out.ID, resp.Process(&out)
}

// pull fetches ref from its registry; the answer is a stream of progress
// objects, one of which may carry the error.
func (a *api) pull(ctx context.Context, ref string) (string, error) {
	resp, err := a.conn.DoRequest(ctx, nil, http.MethodPost, "/images/pull", url.Values{"reference": {ref}, "quiet": {"true"}}, nil)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	if !resp.IsSuccess() {
		return "", resp.Process(nil)
	}
	var id string
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	for {
		var msg struct {
			Error string   `json:"error"`
			ID    string   `json:"id"`
			Image []string `json:"images"`
		}
		if err := dec.Decode(&msg); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", fmt.Errorf("pull %s: %w", ref, err)
		}
		if msg.Error != "" {
			return "", fmt.Errorf("pull %s: %s", ref, msg.Error)
		}
		if msg.ID != "" {
			id = msg.ID
		}
	}
	if id == "" {
		return "", fmt.Errorf("pull %s: the service reported no image", ref)
	}
	return id, nil
}

func (a *api) tag(ctx context.Context, id, repo, tag string) error {
	return a.do(ctx, http.MethodPost, "/images/%s/tag", url.Values{"repo": {repo}, "tag": {tag}}, nil, nil, id)
}

// removeImage deletes an image (tests clean up what they build).
func (a *api) removeImage(ctx context.Context, ref string) error {
	return a.do(ctx, http.MethodDelete, "/images/%s", url.Values{"force": {"true"}}, nil, nil, ref)
}
