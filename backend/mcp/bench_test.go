package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/ratelimit"
	"github.com/warren-dev/warren/tools/scrub"
)

var echoArgs = json.RawMessage(`{"message":"hello from the benchmark"}`)

// BenchmarkBridgeOverhead compares one echo call made with a bare mcp-go
// stdio client against the same call through Warren: manager, bridged tool
// and the registry pipeline (validation, rate limit, scrubbing, events).
// Each iteration makes one call of each kind, which one first alternating,
// so machine noise hits both alike; the medians are compared. Target: at
// most 10 % more.
func BenchmarkBridgeOverhead(b *testing.B) {
	bin := serverBin(b, "mcp-server-everything")
	ctx := context.Background()

	c, err := client.NewStdioMCPClient(bin, nil, "stdio")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	rawCall := mcp.CallToolRequest{}
	rawCall.Params.Name, rawCall.Params.Arguments = "echo", echoArgs

	f := newFixture(b)
	f.save(b, Server{Name: "ev", Transport: TransportStdio, Command: bin, Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	m := f.manager(b, Options{})
	if err := m.StartEnabled(ctx); err != nil {
		b.Fatal(err)
	}
	waitState(b, ch, "ev", 30*time.Second, StateConnected)
	cancel()
	reg := tools.NewRegistry(tools.Options{
		Scrubber: scrub.New(),
		Limiter:  ratelimit.New(ratelimit.Config{}),
		Bus:      f.bus,
	})
	bt, _ := m.BridgeTools()
	for _, t := range bt {
		if err := reg.Register(t); err != nil {
			b.Fatal(err)
		}
	}
	bridgedCall := tools.Call{Name: "mcp_ev_echo", Args: echoArgs}

	callRaw := func() time.Duration {
		t0 := time.Now()
		if _, err := c.CallTool(ctx, rawCall); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	callBridged := func() time.Duration {
		t0 := time.Now()
		res, err := reg.ExecuteWithContext(ctx, bridgedCall)
		if err != nil || res.IsError {
			b.Fatal(res, err)
		}
		return time.Since(t0)
	}
	var raw, bridged []time.Duration
	first := true
	for b.Loop() {
		// Which call goes first alternates: the second call of a pair
		// meets a node process still busy after the first one's reply.
		if first {
			raw = append(raw, callRaw())
			bridged = append(bridged, callBridged())
		} else {
			bridged = append(bridged, callBridged())
			raw = append(raw, callRaw())
		}
		first = !first
	}
	r, w := median(raw), median(bridged)
	b.ReportMetric(float64(r.Microseconds()), "µs-raw-p50")
	b.ReportMetric(float64(w.Microseconds()), "µs-bridged-p50")
	b.ReportMetric(100*float64(w-r)/float64(r), "%-over-raw")
}

// BenchmarkDeadServer measures how long Warren takes to notice a killed
// stdio server and to have it connected again (first backoff step 2 s
// included, as configured by default).
func BenchmarkDeadServer(b *testing.B) {
	bin := serverBin(b, "mcp-server-everything")
	f := newFixture(b)
	f.save(b, Server{Name: "ev", Transport: TransportStdio, Command: bin, Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(256)
	defer cancel()
	m := f.manager(b, Options{})
	if err := m.StartEnabled(context.Background()); err != nil {
		b.Fatal(err)
	}
	st := waitState(b, ch, "ev", 30*time.Second, StateConnected)
	var detect, reconnect []time.Duration
	b.ResetTimer()
	for b.Loop() {
		killed := time.Now()
		if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
			b.Fatal(err)
		}
		waitState(b, ch, "ev", 10*time.Second, StateReconnecting)
		detect = append(detect, time.Since(killed))
		st = waitState(b, ch, "ev", 30*time.Second, StateConnected)
		reconnect = append(reconnect, time.Since(killed))
	}
	b.ReportMetric(float64(median(detect).Microseconds())/1000, "ms-to-detect")
	b.ReportMetric(float64(median(reconnect).Milliseconds()), "ms-to-reconnect")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
