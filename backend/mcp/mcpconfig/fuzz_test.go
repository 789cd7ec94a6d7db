package mcpconfig

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that what it accepts is sound:
// every server passes Validate, names are unique and sorted, and Export then
// Parse gives the same servers back. Seeds: testdata/fuzz/FuzzParse and the
// real-looking configs in testdata.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		if json.Valid(data) && !bytes.Equal(stripJSONC(data), data) {
			t.Fatalf("stripJSONC changed valid JSON %q to %q", data, stripJSONC(data))
		}
		servers, warnings, err := Parse(data)
		if !bytes.Equal(data, orig) {
			t.Fatal("Parse modified its input")
		}
		if err != nil {
			if servers != nil || warnings != nil {
				t.Fatalf("results beside error %v", err)
			}
			return
		}
		if !slices.IsSortedFunc(servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) }) {
			t.Fatalf("servers not sorted: %v", servers)
		}
		for i, s := range servers {
			if err := Validate(s); err != nil {
				t.Fatalf("Parse returned an invalid server: %v", err)
			}
			if i > 0 && servers[i-1].Name == s.Name {
				t.Fatalf("duplicate name %q", s.Name)
			}
		}
		exported, err := Export(servers)
		if err != nil {
			t.Fatalf("Export of parsed servers: %v", err)
		}
		again, _, err := Parse(exported)
		if err != nil {
			t.Fatalf("Parse of exported servers: %v\n%s", err, exported)
		}
		if !reflect.DeepEqual(again, servers) {
			t.Fatalf("round trip changed servers:\n got %#v\nwant %#v", again, servers)
		}
	})
}
