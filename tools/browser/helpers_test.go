package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

// allowList is the test's network guard: it refuses every host except the
// listed host:port entries, the way netguard refuses loopback unless the
// user allow-listed it.
type allowList map[string]bool

func (a allowList) CheckURL(ctx context.Context, u *url.URL) error {
	// netguard reads the agent's network switch from the call context:
	// every check, sub-requests included, must carry it.
	if cc := tools.CallContextFrom(ctx); cc.Agent == "" || !cc.Network {
		return fmt.Errorf("checked without the agent's call context (%+v)", cc)
	}
	if !a[u.Host] {
		return fmt.Errorf("host %s is not on the allow list", u.Host)
	}
	return nil
}

// needChromium fails (never skips) when Chromium is missing, saying what
// to install.
func needChromium(t testing.TB) string {
	t.Helper()
	p, err := FindChromium()
	if err != nil {
		t.Fatalf("this test drives a real browser: install Debian's chromium package (apt-get install chromium; scripts/bootstrap.sh does it): %v", err)
	}
	return p
}

// sites are the test's web: site is allowed, other is refused and counts
// every request that reaches it (it must stay at zero).
type sites struct {
	site, other *httptest.Server
	otherHits   atomic.Int64
	checker     allowList
}

func newSites(t *testing.T) *sites {
	t.Helper()
	s := &sites{}
	s.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.otherHits.Add(1)
		fmt.Fprint(w, "refused host reached")
	}))
	t.Cleanup(s.other.Close)
	s.site = httptest.NewServer(sitePages(s))
	t.Cleanup(s.site.Close)
	s.checker = allowList{hostOf(s.site.URL): true}
	return s
}

// untouched fails the test when anything reached the refused host.
func (s *sites) untouched(t *testing.T) {
	t.Helper()
	if n := s.otherHits.Load(); n != 0 {
		t.Fatalf("the refused host got %d requests", n)
	}
}

func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

// answerApprovals wires the real approvals service with a subscriber
// that plays the person and gives answer.
func answerApprovals(t testing.TB, answer approvals.Decision) *approvals.Service {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	bus := events.New()
	svc := approvals.New(approvals.Options{Store: approvals.NewSQLStore(db.SQL()), Bus: bus})
	ch, unsubscribe := bus.Subscribe(64)
	t.Cleanup(unsubscribe)
	go func() {
		for ev := range ch {
			if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
				svc.Answer(req.ID, answer)
			}
		}
	}()
	return svc
}

// rig is a manager, its tool and the call context of one agent.
type rig struct {
	m    *Manager
	tool tools.Tool
	ws   string
	cc   tools.CallContext
}

func newRig(t testing.TB, checker URLChecker, answer approvals.Decision, idle time.Duration, more ...func(*Deps)) *rig {
	t.Helper()
	exe := needChromium(t)
	ws := t.TempDir()
	d := Deps{Checker: checker, Approvals: answerApprovals(t, answer), ProfileDir: t.TempDir(),
		Workspace: ws, ExecPath: exe, Idle: idle}
	for _, f := range more {
		f(&d)
	}
	m := NewManager(d)
	t.Cleanup(m.Close)
	tool, err := m.Tool()
	if err != nil {
		t.Fatal(err)
	}
	return &rig{m: m, tool: tool, ws: ws, cc: tools.CallContext{Agent: "tester", Workspace: ws, Network: true, SandboxKey: "local:tester"}}
}

// call runs one browser action and fails the test on a Go error.
func (r *rig) call(t testing.TB, args map[string]any) tools.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(tools.WithCallContext(context.Background(), r.cc), 90*time.Second)
	defer cancel()
	res, err := r.tool.Execute(ctx, raw)
	if err != nil {
		t.Fatalf("browser %s: %v", raw, err)
	}
	return res
}

// ok runs an action that must succeed and returns its text for the model.
func (r *rig) ok(t testing.TB, args map[string]any) string {
	t.Helper()
	res := r.call(t, args)
	if res.IsError {
		t.Fatalf("browser %v failed: %s", args, res.ForLLM)
	}
	return res.ForLLM
}

// ref finds the ref of the first snapshot line matching role and name.
func ref(t *testing.T, snapshot, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(`\[(e\d+)\] ` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `"`)
	m := re.FindStringSubmatch(snapshot)
	if m == nil {
		t.Fatalf("no %s %q in the snapshot:\n%s", role, name, snapshot)
	}
	return m[1]
}

// sitePages serves the allowed site's pages.
func sitePages(s *sites) http.Handler {
	mux := http.NewServeMux()
	page := func(path, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	page("/form", `<!doctype html><title>Form</title><form action="/hello" method="get">
<label for="n">Name</label><input id="n" name="name"><button type="submit">Send</button></form>`)
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Hello</title><h1>Hello, %s</h1>`, html.EscapeString(r.URL.Query().Get("name")))
	})
	page("/button", `<!doctype html><title>Button</title><p id="msg">Waiting</p>
<button onclick="document.getElementById('msg').textContent='Button was clicked'">Change</button>
<a href="/second">Go to second</a> <a href="/second" target="_blank">Second in a new tab</a>
<a href="/closer" target="_blank">Closer in a new tab</a>`)
	page("/closer", `<!doctype html><title>Closer</title><button onclick="window.close()">Close me</button>`)
	page("/second", `<!doctype html><title>Second</title><h1>Second page</h1>`)
	mux.HandleFunc("/framed", func(w http.ResponseWriter, r *http.Request) {
		src := r.URL.Query().Get("src")
		if src == "" {
			src = "/form"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Framed</title><h1>Outer page</h1>
<iframe name="inner" src="%s" width="400" height="200"></iframe>`, html.EscapeString(src))
	})
	page("/late", `<!doctype html><title>Late</title><script>setTimeout(()=>{document.body.insertAdjacentHTML('beforeend','<p class="late">Arrived late</p>')},300)</script>`)
	mux.HandleFunc("/leaky", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Leaky</title><h1>Leaky page</h1><img src="%[1]s/pixel.png" alt="tracker">
<iframe src="%[1]s/frame"></iframe><script>fetch("%[1]s/xhr").catch(()=>{})</script>`, s.other.URL)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Socket</title><h1>Socket page</h1>
<script>try { new WebSocket("ws://%s/sock") } catch (e) {}</script>`, hostOf(s.other.URL))
	})
	mux.HandleFunc("/redir", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.other.URL+"/landing", http.StatusFound)
	})
	mux.HandleFunc("/redir-ok", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/second", http.StatusFound)
	})
	return mux
}
