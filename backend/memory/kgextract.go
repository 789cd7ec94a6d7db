package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/warren-dev/warren/backend/llm"
)

// Extraction settings (issue 13 §4).
const (
	minConfidence = 0.75
	mergeCosine   = 0.98 // with similar names: the same entity
	reviewCosine  = 0.90 // with similar names: kept apart, flagged for review
	nameSimilar   = 0.8
)

// Model is the agent's model as extraction uses it.
type Model struct {
	Provider llm.Provider
	Name     string
}

type extracted struct {
	Entities []struct {
		Name        string  `json:"name"`
		Type        string  `json:"type"`
		Description string  `json:"description"`
		Confidence  float64 `json:"confidence"`
	} `json:"entities"`
	Relations []struct {
		Source     string  `json:"source"`
		Target     string  `json:"target"`
		Type       string  `json:"type"`
		ValidFrom  string  `json:"valid_from"`
		ValidTo    string  `json:"valid_to"`
		Confidence float64 `json:"confidence"`
	} `json:"relations"`
}

// ExtractResult says what one extraction did.
type ExtractResult struct {
	Entities  int `json:"entities"`
	Merged    int `json:"merged"`
	Flagged   int `json:"flagged"`
	Relations int `json:"relations"`
	Dropped   int `json:"dropped"` // below the confidence floor or outside the vocabulary
}

func extractPrompt(text string) string {
	return "Extract a knowledge graph from the note below. Answer with JSON only, no prose:\n" +
		`{"entities":[{"name":"…","type":"…","description":"one line","confidence":0.0-1.0}],` +
		`"relations":[{"source":"entity name","target":"entity name","type":"…","valid_from":"YYYY-MM-DD or empty","valid_to":"YYYY-MM-DD or empty","confidence":0.0-1.0}]}` + "\n" +
		"Entity types: " + strings.Join(EntityTypes, ", ") + ".\nRelation types: " + strings.Join(RelationTypes, ", ") + ".\n" +
		"Only facts the note states; confidence below 0.75 when unsure.\n\nNote:\n" + text
}

// ExtractGraph asks the model for the entities and relations in a
// document's chunks (temperature 0, a fixed vocabulary), repairs its JSON,
// keeps what has confidence ≥ 0.75, and merges entities with the ones the
// graph has: same name and type, or a similar name whose embedding is
// almost the same (≥ 0.98) merge; ≥ 0.90 is kept apart and flagged.
func (s *Store) ExtractGraph(ctx context.Context, agent string, doc Doc, m Model) (ExtractResult, error) {
	var res ExtractResult
	chunks, err := s.docChunks(ctx, doc.ID)
	if err != nil {
		return res, err
	}
	zero := 0.0
	for _, c := range chunks {
		resp, err := m.Provider.Stream(ctx, llm.Request{Model: m.Name, Temperature: &zero, MaxTokens: 2000,
			Messages: []llm.Message{{Role: llm.RoleUser, Content: extractPrompt(c.text)}}}, func(llm.Event) {})
		if err != nil {
			return res, fmt.Errorf("knowledge graph extraction with %s: %w", m.Name, err)
		}
		var x extracted
		if err := json.Unmarshal([]byte(repairJSON(resp.Message.Content)), &x); err != nil {
			return res, fmt.Errorf("knowledge graph extraction: the model's answer is not JSON even after repair: %.120q", resp.Message.Content)
		}
		ids := map[string]int64{}
		for _, e := range x.Entities {
			if e.Confidence < minConfidence || !slices.Contains(EntityTypes, strings.ToLower(e.Type)) || strings.TrimSpace(e.Name) == "" {
				res.Dropped++
				continue
			}
			id, how, err := s.mergeEntity(ctx, Entity{Agent: agent, Name: e.Name, Type: e.Type, Description: e.Description,
				Confidence: e.Confidence, SourceChunk: c.id})
			if err != nil {
				return res, err
			}
			switch how {
			case "merged":
				res.Merged++
			case "flagged":
				res.Flagged++
				res.Entities++
			default:
				res.Entities++
			}
			ids[strings.ToLower(strings.TrimSpace(e.Name))] = id
		}
		for _, r := range x.Relations {
			src, ok1 := ids[strings.ToLower(strings.TrimSpace(r.Source))]
			dst, ok2 := ids[strings.ToLower(strings.TrimSpace(r.Target))]
			if r.Confidence < minConfidence || !ok1 || !ok2 || !slices.Contains(RelationTypes, strings.ToLower(r.Type)) {
				res.Dropped++
				continue
			}
			if _, err := s.Link(ctx, Relation{Src: src, Dst: dst, Type: r.Type, ValidFrom: r.ValidFrom, ValidTo: r.ValidTo,
				Confidence: r.Confidence, SourceChunk: c.id}); err != nil {
				res.Dropped++ // a bad date, say: the rest still counts
				continue
			}
			res.Relations++
		}
	}
	return res, nil
}

type chunkText struct {
	id   int64
	text string
}

func (s *Store) docChunks(ctx context.Context, docID int64) ([]chunkText, error) {
	var out []chunkText
	err := eachRow(ctx, s.db, "SELECT id, heading, text FROM memory_chunks WHERE doc_id = ? ORDER BY seq", []any{docID},
		func(scan func(...any) error) error {
			var c chunkText
			var heading string
			if err := scan(&c.id, &heading, &c.text); err != nil {
				return err
			}
			if heading != "" {
				c.text = heading + "\n" + c.text
			}
			out = append(out, c)
			return nil
		})
	return out, err
}

// mergeEntity adds e, or merges it into an entity the graph already has.
func (s *Store) mergeEntity(ctx context.Context, e Entity) (int64, string, error) {
	e.Type = strings.ToLower(strings.TrimSpace(e.Type))
	var candidates []Entity
	err := eachRow(ctx, s.db, "SELECT "+entityCols+" FROM kg_entities WHERE agent IN (?, '') AND type = ?", []any{e.Agent, e.Type},
		func(scan func(...any) error) error {
			c, err := scanEntity(scan)
			candidates = append(candidates, c)
			return err
		})
	if err != nil {
		return 0, "", err
	}
	for _, c := range candidates {
		if strings.EqualFold(c.Name, strings.TrimSpace(e.Name)) {
			return c.ID, "merged", nil
		}
	}
	emb := s.Embedder()
	for _, c := range candidates {
		if similarity(c.Name, e.Name) < nameSimilar || emb == nil {
			continue
		}
		vecs, err := emb.Embed(ctx, []string{c.Name + ": " + c.Description, e.Name + ": " + e.Description})
		if err != nil || len(vecs) != 2 {
			continue
		}
		cos := 0.0
		for i := range vecs[0] {
			cos += float64(vecs[0][i]) * float64(vecs[1][i])
		}
		switch {
		case cos >= mergeCosine:
			return c.ID, "merged", nil
		case cos >= reviewCosine:
			e.Review = fmt.Sprintf("maybe the same as entity %d (%s)", c.ID, c.Name)
			added, err := s.AddEntity(ctx, e)
			return added.ID, "flagged", err
		}
	}
	added, err := s.AddEntity(ctx, e)
	return added.ID, "added", err
}

// similarity is 1 minus the edit distance over the longer length, on the
// lower-cased names.
func similarity(a, b string) float64 {
	ra, rb := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	if len(ra) == 0 && len(rb) == 0 {
		return 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(max(len(ra), len(rb)))
}

// repairJSON digs the JSON object out of a model's answer: code fences and
// prose around it go, trailing commas before } or ] go, smart quotes become
// plain ones.
func repairJSON(s string) string {
	s = strings.NewReplacer("\u201c", `"`, "\u201d", `"`).Replace(s)
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return s
	}
	s = s[start : end+1]
	var b strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		}
		if c == ',' {
			j := i + 1
			for j < len(s) && unicode.IsSpace(rune(s[j])) {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue // a trailing comma
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
