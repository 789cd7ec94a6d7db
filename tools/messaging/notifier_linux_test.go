package messaging_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/tools/messaging"
)

// sessionBus starts a private D-Bus session bus for one test and returns
// its address.
func sessionBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is not installed (apt-get install dbus-daemon; scripts/bootstrap.sh does it)")
	}
	cmd := exec.CommandContext(t.Context(), "dbus-daemon", "--session", "--print-address", "--nofork")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Wait() }) // t.Context() is cancelled first, which kills it
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(line)
}

// notification is one Notify call the test's service received.
type notification struct{ app, summary, body string }

// notificationService is the receiving side: a minimal
// org.freedesktop.Notifications on the test's bus.
type notificationService struct{ got chan notification }

// Notify implements org.freedesktop.Notifications.Notify.
func (s notificationService) Notify(app string, _ uint32, _, summary, body string, _ []string, _ map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	s.got <- notification{app, summary, body}
	return 1, nil
}

func serveNotifications(t *testing.T, addr string) chan notification {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	svc := notificationService{got: make(chan notification, 4)}
	if err := conn.Export(svc, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("request name: %v %v", reply, err)
	}
	return svc.got
}

func TestDesktopNotifierOnDBus(t *testing.T) {
	t.Parallel()
	addr := sessionBus(t)
	got := serveNotifications(t, addr)
	n := messaging.NewDesktopNotifier(messaging.DesktopOptions{BusAddress: addr})
	if err := n.Notify(context.Background(), "Build", "tests passed"); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != (notification{"Warren", "Build", "tests passed"}) {
		t.Fatalf("received %+v", g)
	}
	// Text from agents never becomes markup (servers with body-markup).
	if err := n.Notify(context.Background(), "Approve", `delete_file {"path":"<a href='x'>a&b</a>.txt"}`); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g.body != `delete_file {"path":"&lt;a href='x'&gt;a&amp;b&lt;/a&gt;.txt"}` {
		t.Fatalf("body %q", g.body)
	}
}

func TestDesktopNotifierUnavailable(t *testing.T) {
	t.Parallel()
	addr := sessionBus(t) // a bus, but nobody serves notifications on it
	cases := map[string]struct{ addr, want string }{
		"no bus":     {"unix:path=" + t.TempDir() + "/no-bus", "cannot connect to the D-Bus session bus"},
		"no service": {addr, "no notification service"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := messaging.NewDesktopNotifier(messaging.DesktopOptions{BusAddress: tc.addr}).Notify(context.Background(), "t", "b")
			if !errors.Is(err, messaging.ErrUnavailable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestMessageToolNotifiesDesktop: the tool delivers in the conversation,
// on the bus and as a real D-Bus notification.
func TestMessageToolNotifiesDesktop(t *testing.T) {
	t.Parallel()
	addr := sessionBus(t)
	got := serveNotifications(t, addr)
	st, sid := sessionStore(t)
	bus := events.New()
	ch, unsubscribe := bus.Subscribe(8)
	defer unsubscribe()
	reg := registry(t, messaging.Deps{Sessions: st, Bus: bus, Notifier: messaging.NewDesktopNotifier(messaging.DesktopOptions{BusAddress: addr})})
	res := call(t, reg, sid, `{"text":"The nightly build is green.","title":"Nightly build","level":"success"}`)
	if res.IsError || !strings.Contains(res.ForLLM, "shown as a desktop notification") {
		t.Fatalf("result %+v", res)
	}
	if g := <-got; g.summary != "Nightly build" || g.body != "The nightly build is green." {
		t.Fatalf("notification %+v", g)
	}
	m := userMessage(t, ch)
	raw, _ := json.Marshal(m)
	for _, want := range []string{`"agent":"builder"`, `"session":"` + sid + `"`, `"title":"Nightly build"`, `"level":"success"`, `"at":"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("payload %s lacks %s", raw, want)
		}
	}
}
