package warren

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools/fs"
)

// The first run: finding a model server on this machine, making it the
// default agent's model in one step, and remembering that the setup was
// seen (SettingFirstRunDone) so the window opens it once.

// EnvModelServerURLs adds candidate model servers to DetectModelServers:
// comma-separated base URLs ("http://127.0.0.1:9999/v1"; a URL without a
// path gets "/v1"). Tests point it at their scripted server; a user can
// point it at a server on another port or machine.
const EnvModelServerURLs = "WARREN_MODEL_SERVER_URLS"

// DetectTimeout bounds each probe: a local server answers in milliseconds,
// and the wizard waits for the slowest probe.
const DetectTimeout = 700 * time.Millisecond

// ServerCandidate is an address where an OpenAI-compatible server may listen.
type ServerCandidate struct {
	// Kind is a stable id: "ollama", "lmstudio", "llamacpp", "vllm" or "custom".
	Kind string `json:"kind"`
	// Label names the server for a person: "Ollama".
	Label string `json:"label"`
	// BaseURL ends before /models and /chat/completions.
	BaseURL string `json:"base_url"`
}

// ModelServer is a candidate that answered, with the models it serves.
type ModelServer struct {
	ServerCandidate
	Models []llm.Model `json:"models"`
	// NeedsKey is set when the server answered 401/403: it runs, but wants
	// an API key before it lists models.
	NeedsKey bool `json:"needs_key"`
}

// DefaultModelServers are the usual local servers, loopback only: probing
// the network uninvited would be rude and slow.
var DefaultModelServers = []ServerCandidate{
	{Kind: "ollama", Label: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
	{Kind: "lmstudio", Label: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
	{Kind: "llamacpp", Label: "llama.cpp", BaseURL: "http://127.0.0.1:8080/v1"},
	{Kind: "vllm", Label: "vLLM", BaseURL: "http://127.0.0.1:8000/v1"},
}

// ModelServerCandidates returns the default candidates plus those named by
// EnvModelServerURLs (read through getenv); malformed entries are skipped.
func ModelServerCandidates(getenv func(string) string) []ServerCandidate {
	out := append([]ServerCandidate{}, DefaultModelServers...)
	for raw := range strings.SplitSeq(getenv(EnvModelServerURLs), ",") {
		raw = strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = "/v1"
		}
		out = append(out, ServerCandidate{Kind: "custom", Label: "Server at " + u.Host, BaseURL: strings.TrimRight(u.String(), "/")})
	}
	return out
}

// DetectModelServers probes every candidate in parallel (GET BaseURL/models,
// at most timeout each) and returns those that answered, in candidate order.
// A candidate is probed once even when listed twice.
func DetectModelServers(ctx context.Context, candidates []ServerCandidate, timeout time.Duration) []ModelServer {
	// No proxy: these are this machine's servers, and a proxy would turn a
	// refused connection into a slow error page.
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}, Timeout: timeout}
	found := make([]*ModelServer, len(candidates))
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for i, c := range candidates {
		if seen[c.BaseURL] {
			continue
		}
		seen[c.BaseURL] = true
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			found[i] = probeModelServer(pctx, client, c)
		})
	}
	wg.Wait()
	out := []ModelServer{}
	for _, s := range found {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// probeModelServer lists c's models; nil when nothing OpenAI-compatible
// answered (refused, timed out, not JSON, another kind of web server).
func probeModelServer(ctx context.Context, client *http.Client, c ServerCandidate) *ModelServer {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/models", nil)
	if err != nil {
		return nil
	}
	res, err := client.Do(req)
	if err != nil {
		return nil
	}
	defer func() { _ = res.Body.Close() }()
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return &ModelServer{ServerCandidate: c, Models: []llm.Model{}, NeedsKey: true}
	case res.StatusCode != http.StatusOK:
		return nil
	}
	var list struct {
		Object string `json:"object"`
		Data   *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 4<<20)).Decode(&list); err != nil || list.Data == nil {
		return nil // some other JSON service on the port
	}
	s := &ModelServer{ServerCandidate: c, Models: []llm.Model{}}
	for _, m := range *list.Data {
		if m.ID != "" {
			s.Models = append(s.Models, llm.Model{ID: m.ID})
		}
	}
	return s
}

// DetectModelServers probes the local model servers (and EnvModelServerURLs
// through getenv) for the first-run setup.
func (w *Warren) DetectModelServers(ctx context.Context, getenv func(string) string) []ModelServer {
	return DetectModelServers(ctx, ModelServerCandidates(getenv), DetectTimeout)
}

// SettingFirstRunDone records that the first-run setup was finished or
// skipped; the window opens the setup while it is false.
const SettingFirstRunDone = "ui.first_run_done"

// FirstRunPending reports whether the window should open the first-run
// setup: not finished or skipped yet, and not already set up some other
// way (a data directory whose default agent has a provider predates the
// setup, and its owner needs no wizard).
func (w *Warren) FirstRunPending(ctx context.Context) (bool, error) {
	if w.settings.bool(SettingFirstRunDone) {
		return false, nil
	}
	a, err := w.db.GetAgent(ctx, fs.DefaultAgent)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return a.Provider == "", nil
}

// CompleteFirstRun stores the provider (its key sealed, as SaveModelProvider
// does) with model as its default, and makes both the default agent's
// provider and model, so the first message works without another visit to
// the settings. It does not mark the setup done: the sandbox and MCP steps
// follow.
func (w *Warren) CompleteFirstRun(ctx context.Context, p store.Provider, model string) error {
	model = strings.TrimSpace(model)
	if model == "" {
		return errors.New("choose a model for the default agent")
	}
	p.DefaultModel = model
	if p.ToolMode == "" {
		// Running the setup again on a known server keeps how its tools are called.
		if old, err := w.Providers().Get(ctx, p.Name); err == nil {
			p.ToolMode = old.ToolMode
		}
	}
	if err := w.Providers().Save(ctx, p); err != nil {
		return err
	}
	a, err := w.db.GetAgent(ctx, fs.DefaultAgent)
	if errors.Is(err, store.ErrNotFound) {
		a = store.Agent{Key: fs.DefaultAgent, Name: "Default agent", Type: store.AgentOpen, Sandbox: true}
	} else if err != nil {
		return err
	}
	a.Provider, a.Model = p.Name, model
	if _, err := w.SaveAgent(ctx, a); err != nil {
		return fmt.Errorf("make %s the default agent's model: %w", model, err)
	}
	return nil
}

// NewAgentDefaults is what a new agent starts with: an open agent with the
// default agent's sandbox setting, and the sandbox on when there is no
// default agent to copy. Turning the sandbox off is a choice a person makes,
// never a default.
func (w *Warren) NewAgentDefaults(ctx context.Context) (store.Agent, error) {
	a := store.Agent{Type: store.AgentOpen, Sandbox: true, Allow: []string{}, Deny: []string{}}
	def, err := w.db.GetAgent(ctx, fs.DefaultAgent)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return store.Agent{}, err
	default:
		a.Sandbox = def.Sandbox
	}
	return a, nil
}

// TestProviderDraft connects to a provider configuration that may not be
// saved and lists its models; nothing is stored. An empty APIKey uses the
// key stored for a provider of the same name (editing without retyping
// it), "-" means none.
func (w *Warren) TestProviderDraft(ctx context.Context, p store.Provider) ([]llm.Model, error) {
	if p.Kind != store.ProviderOpenAI && p.Kind != store.ProviderAnthropic {
		return nil, fmt.Errorf("kind %q must be openai or anthropic", p.Kind)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q must be an http(s) URL such as http://127.0.0.1:11434/v1", p.BaseURL)
	}
	switch p.APIKey {
	case "-":
		p.APIKey = ""
	case "":
		if p.Name != "" {
			stored, err := w.Providers().Get(ctx, p.Name)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			p.APIKey = stored.APIKey
		}
	}
	var prov llm.Provider
	if p.Kind == store.ProviderAnthropic {
		prov = llm.NewAnthropic(llm.AnthropicOptions{BaseURL: p.BaseURL, APIKey: p.APIKey,
			RetryOptions: llm.RetryOptions{MaxRetries: -1}})
	} else {
		prov = llm.NewOpenAI(llm.OpenAIOptions{Name: cmp.Or(p.Name, "provider"), BaseURL: strings.TrimRight(p.BaseURL, "/"),
			APIKey: p.APIKey, RetryOptions: llm.RetryOptions{MaxRetries: -1}})
	}
	// A test answers now or says why not: no retries, a bounded wait.
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	models, err := prov.Models(tctx)
	if models == nil && err == nil {
		models = []llm.Model{}
	}
	return models, err
}
