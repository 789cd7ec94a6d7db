package memory

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
)

func entity(t *testing.T, s *Store, name, typ string) Entity {
	t.Helper()
	e, err := s.AddEntity(context.Background(), Entity{Agent: "ada", Name: name, Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func link(t *testing.T, s *Store, a, b Entity, typ, from, to string) {
	t.Helper()
	if _, err := s.Link(context.Background(), Relation{Src: a.ID, Dst: b.ID, Type: typ, ValidFrom: from, ValidTo: to}); err != nil {
		t.Fatal(err)
	}
}

// TestGraphSearch: seeds by words or id, a walk in both directions up to
// max_depth that survives a cycle, validity intervals honoured with as_of,
// and bad input refused with the reason.
func TestGraphSearch(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	ctx := context.Background()
	ana := entity(t, s, "Ana Ruiz", "person")
	apollo := entity(t, s, "Apollo", "project")
	acme := entity(t, s, "Acme Corp", "organization")
	lyon := entity(t, s, "Lyon", "place")
	link(t, s, ana, apollo, "works_on", "2025-01-01", "2025-12-31")
	link(t, s, apollo, acme, "part_of", "", "")
	link(t, s, acme, lyon, "located_in", "", "")
	link(t, s, lyon, ana, "related_to", "", "") // a cycle back to the seed
	g, err := s.SearchGraph(ctx, GraphQuery{Text: "ana", Agent: "ada", MaxDepth: 5})
	if err != nil || len(g.Seeds) != 1 || g.Seeds[0].ID != ana.ID {
		t.Fatalf("seeds %+v %v", g.Seeds, err)
	}
	if len(g.Relations) != 4 || len(g.Entities) != 3 {
		t.Fatalf("walk: %d relations, %d entities: %+v", len(g.Relations), len(g.Entities), g.Relations)
	}
	g, _ = s.SearchGraph(ctx, GraphQuery{EntityID: apollo.ID, Agent: "ada", MaxDepth: 1})
	if len(g.Relations) != 2 {
		t.Fatalf("depth 1 from Apollo: %+v", g.Relations)
	}
	g, _ = s.SearchGraph(ctx, GraphQuery{EntityID: ana.ID, Agent: "ada", MaxDepth: 1, AsOf: "2026-06-01"})
	for _, r := range g.Relations {
		if r.Type == "works_on" {
			t.Fatalf("an ended relation shown as of 2026: %+v", r)
		}
	}
	if g, _ := s.SearchGraph(ctx, GraphQuery{Text: "ana", Agent: "bob"}); len(g.Seeds) != 0 {
		t.Fatalf("bob sees ada's graph: %+v", g.Seeds)
	}
	for _, q := range []GraphQuery{{Text: "x", MaxDepth: 6}, {Text: "x", EntityType: "alien"}, {}, {Text: "x", AsOf: "soon"}} {
		if _, err := s.SearchGraph(ctx, q); !errors.Is(err, ErrBadGraph) {
			t.Fatalf("%+v: %v", q, err)
		}
	}
	for _, bad := range []Relation{{Src: ana.ID, Dst: ana.ID, Type: "knows"}, {Src: ana.ID, Dst: acme.ID, Type: "likes"},
		{Src: ana.ID, Dst: 9999, Type: "knows"}, {Src: ana.ID, Dst: acme.ID, Type: "knows", ValidFrom: "2026-01-02", ValidTo: "2025-01-01"}} {
		if _, err := s.Link(ctx, bad); err == nil {
			t.Fatalf("accepted %+v", bad)
		}
	}
	if err := s.DeleteEntity(ctx, acme.ID); err != nil {
		t.Fatal(err)
	}
	g, _ = s.SearchGraph(ctx, GraphQuery{EntityID: apollo.ID, Agent: "ada", MaxDepth: 1})
	if len(g.Relations) != 1 {
		t.Fatalf("relations of a deleted entity kept: %+v", g.Relations)
	}
}

// TestExtractGraph: the model's answer (in a code fence, with a trailing
// comma) is repaired; low-confidence and off-vocabulary items are dropped;
// an entity the graph has is merged, a look-alike flagged.
func TestExtractGraph(t *testing.T) {
	t.Parallel()
	answer := "Here you go:\n```json\n{\"entities\":[" +
		`{"name":"Ana Ruiz","type":"person","description":"engineer","confidence":0.95},` +
		`{"name":"Apollo","type":"project","description":"the billing rewrite","confidence":0.9},` +
		`{"name":"Maybe Bob","type":"person","confidence":0.4},` +
		`{"name":"Blue","type":"colour","confidence":0.99},],` +
		`"relations":[{"source":"Ana Ruiz","target":"Apollo","type":"works_on","valid_from":"2025-03-01","confidence":0.9},` +
		`{"source":"Ana Ruiz","target":"Apollo","type":"hates","confidence":0.9}]}` + "\n```"
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{{Expect: "Ana", Chunks: []string{answer}, FinishReason: "stop"}}})
	s := openStore(t, &hashEmbedder{dims: 32, model: "a"})
	existing := entity(t, s, "ana ruiz", "person")
	doc := put(t, s, "ada", "local", "memory/team.md", "Ana Ruiz has worked on Apollo since March 2025.")
	res, err := s.ExtractGraph(context.Background(), "ada", doc, Model{Provider: llm.NewOpenAI(llm.OpenAIOptions{Name: "t", BaseURL: srv.URL + "/v1"}), Name: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Entities != 1 || res.Merged != 1 || res.Relations != 1 || res.Dropped != 3 {
		t.Fatalf("%+v", res)
	}
	g, err := s.SearchGraph(context.Background(), GraphQuery{EntityID: existing.ID, Agent: "ada"})
	if err != nil || len(g.Relations) != 1 || g.Relations[0].DstName != "Apollo" || g.Relations[0].ValidFrom != "2025-03-01T00:00:00Z" {
		t.Fatalf("%+v %v", g, err)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `"temperature":0`) {
		t.Fatalf("not at temperature 0: %.300s", body)
	}
}

func TestRepairJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"```json\n{\"a\": [1, 2,], }\n```": `{"a": [1, 2] }`,
		`prose {"s": "keep, ]"} more`:      `{"s": "keep, ]"}`,
		"no json here":                     "no json here",
	} {
		if got := repairJSON(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
