// Command llmserve serves an llmtest cassette over HTTP outside go test, for
// the end-to-end tests of the desktop UI:
//
//	go run ./backend/llm/llmtest/cmd/llmserve -cassette e2e/cassettes/chat.json -addr 127.0.0.1:0
//
// It prints the server's root URL on stdout (OpenAI-compatible clients use
// URL + "/v1") and serves until it gets SIGINT or SIGTERM. Cassette
// mismatches are logged on stderr; the client sees the 400 llmtest answers.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http/httptest"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
)

// tb is the part of testing.TB that llmtest uses (Helper, Errorf, Fatalf,
// Cleanup); any other method panics through the nil embedded interface.
type tb struct {
	testing.TB
	cleanups []func()
}

func (t *tb) Helper()                        {}
func (t *tb) Errorf(format string, a ...any) { log.Printf(format, a...) }
func (t *tb) Fatalf(format string, a ...any) { log.Fatalf(format, a...) }
func (t *tb) Logf(format string, a ...any)   { log.Printf(format, a...) }
func (t *tb) Cleanup(f func())               { t.cleanups = append(t.cleanups, f) }
func (t *tb) Name() string                   { return "llmserve" }
func (t *tb) Fatal(a ...any)                 { log.Fatal(a...) }
func (t *tb) Error(a ...any)                 { log.Print(a...) }
func (t *tb) Log(a ...any)                   { log.Print(a...) }

func (t *tb) close() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

func main() {
	cassette := flag.String("cassette", "", "cassette JSON file to serve (required)")
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("llmserve: ")
	if *cassette == "" {
		log.Fatal("-cassette is required")
	}
	t := &tb{}
	c := llmtest.LoadCassette(t, *cassette)

	// NewServer listens on a random loopback port; to honour -addr, swap its
	// listener before anyone connects.
	srv := llmtest.NewServer(t, c)
	defer t.close()
	if *addr != "127.0.0.1:0" {
		ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", *addr)
		if err != nil {
			t.close()
			log.Fatal(err)
		}
		srv.Close()
		ns := httptest.NewUnstartedServer(srv.Config.Handler)
		_ = ns.Listener.Close()
		ns.Listener = ln
		ns.Start()
		srv.Server = ns
		t.Cleanup(ns.Close)
	}
	fmt.Println(srv.URL)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if n := srv.Remaining(); n > 0 {
		log.Printf("stopping with %d turn(s) of %q not served", n, c.Name)
	}
}
