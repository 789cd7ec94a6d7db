package embedtest

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
)

func TestVectors(t *testing.T) {
	t.Parallel()
	a, b := Vector("hello", 16), Vector("hello", 16)
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("Vector is not deterministic")
		}
	}
	var n float64
	for _, x := range Unit("hello", 16) {
		n += float64(x) * float64(x)
	}
	if math.Abs(n-1) > 1e-6 {
		t.Errorf("Unit has squared norm %v", n)
	}
}

// A plain string input (allowed by the API) gets one embedding.
func TestServerStringInput(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, Options{Dims: 3})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.BaseURL()+"/embeddings", strings.NewReader(`{"model":"m","input":"one text"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got Response
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(got.Data) != 1 || got.Model != "m" {
		t.Errorf("status %d, %d embeddings, model %q", resp.StatusCode, len(got.Data), got.Model)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Input[0] != "one text" {
		t.Errorf("recorded %+v", reqs)
	}
}
