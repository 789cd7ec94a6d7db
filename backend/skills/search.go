package skills

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/warren-dev/warren/backend/memory/embed"
)

// Hit is one skill_search result.
type Hit struct {
	Skill Skill   `json:"skill"`
	Score float64 `json:"score"`
	// KeywordRank and VectorRank are the skill's rank in each channel (0:
	// not found there).
	KeywordRank int `json:"keyword_rank"`
	VectorRank  int `json:"vector_rank"`
}

// Field weights of the keyword channel: a word in the name counts most.
const (
	weightName = 3.0
	weightDesc = 2.0
	weightBody = 1.0
	rrfK       = 60
	bm25K1     = 1.2
	bm25B      = 0.75
)

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// Search ranks skills for a query: BM25 over name, description and body
// (weighted 3:2:1) and, with an embedder, cosine similarity over "name:
// description"; the channels are fused by reciprocal rank.
func Search(ctx context.Context, all []Skill, query string, max int, e embed.Embedder) []Hit {
	if max <= 0 {
		max = 5
	}
	q := words(query)
	if len(all) == 0 || len(q) == 0 && e == nil {
		return []Hit{}
	}
	kw := keywordRanks(all, q)
	vec := vectorRanks(ctx, all, query, e)
	best := 0.0
	if len(kw) > 0 || vec == nil {
		best += 1.0 / (rrfK + 1)
	}
	if vec != nil {
		best += 1.0 / (rrfK + 1)
	}
	var hits []Hit
	for i, sk := range all {
		h := Hit{Skill: sk, KeywordRank: kw[i], VectorRank: vec[i]}
		if h.KeywordRank > 0 {
			h.Score += 1.0 / float64(rrfK+h.KeywordRank)
		}
		if h.VectorRank > 0 {
			h.Score += 1.0 / float64(rrfK+h.VectorRank)
		}
		if h.Score > 0 {
			h.Score /= best
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Skill.Name < hits[j].Skill.Name
	})
	if len(hits) > max {
		hits = hits[:max]
	}
	return hits
}

// keywordRanks is BM25 per field, weighted, over the skills that hold a
// query word; rank by index of all (0: no match).
func keywordRanks(all []Skill, q []string) map[int]int {
	type doc struct{ name, desc, body []string }
	docs := make([]doc, len(all))
	var avg [3]float64
	df := map[string]int{}
	for i, sk := range all {
		docs[i] = doc{words(strings.ReplaceAll(sk.Name, "-", " ")), words(sk.Description), words(sk.Body)}
		avg[0] += float64(len(docs[i].name))
		avg[1] += float64(len(docs[i].desc))
		avg[2] += float64(len(docs[i].body))
		seen := map[string]bool{}
		for _, f := range [][]string{docs[i].name, docs[i].desc, docs[i].body} {
			for _, w := range f {
				if !seen[w] {
					seen[w] = true
					df[w]++
				}
			}
		}
	}
	n := float64(len(all))
	for i := range avg {
		avg[i] = math.Max(avg[i]/n, 1)
	}
	field := func(ws []string, term string, avgLen float64) float64 {
		tf := 0.0
		for _, w := range ws {
			if w == term {
				tf++
			}
		}
		if tf == 0 {
			return 0
		}
		return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(len(ws))/avgLen))
	}
	type scored struct {
		i     int
		score float64
	}
	var list []scored
	for i, d := range docs {
		score := 0.0
		for _, t := range q {
			if df[t] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			score += idf * (weightName*field(d.name, t, avg[0]) + weightDesc*field(d.desc, t, avg[1]) + weightBody*field(d.body, t, avg[2]))
		}
		if score > 0 {
			list = append(list, scored{i, score})
		}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].score > list[b].score })
	out := map[int]int{}
	for r, x := range list {
		out[x.i] = r + 1
	}
	return out
}

// vectorRanks ranks every skill by cosine similarity of its "name:
// description" to the query; nil when there is no embedder or it fails.
func vectorRanks(ctx context.Context, all []Skill, query string, e embed.Embedder) map[int]int {
	if e == nil {
		return nil
	}
	texts := make([]string, 0, len(all)+1)
	texts = append(texts, query)
	for _, sk := range all {
		texts = append(texts, strings.ReplaceAll(sk.Name, "-", " ")+": "+sk.Description)
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return nil
	}
	qv := vecs[0]
	type scored struct {
		i   int
		cos float64
	}
	list := make([]scored, len(all))
	for i := range all {
		dot := 0.0
		for j := range qv {
			if j < len(vecs[i+1]) {
				dot += float64(qv[j]) * float64(vecs[i+1][j])
			}
		}
		list[i] = scored{i, dot}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].cos > list[b].cos })
	out := map[int]int{}
	for r, x := range list {
		if x.cos > 0 {
			out[x.i] = r + 1
		}
	}
	return out
}

// PromptList is the system prompt's list of skills: name and description,
// at most max skills and about budget characters.
func PromptList(all []Skill, max, budget int) string {
	if len(all) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Skills\n\nSkills are instructions for particular jobs. When one fits the task, call use_skill with its name " +
		"before you start; skill_search finds more.\n\n")
	for i, sk := range all {
		line := "- " + sk.Name + ": " + sk.Description + "\n"
		if i >= max || b.Len()+len(line) > budget {
			b.WriteString("- … and more: use skill_search\n")
			break
		}
		b.WriteString(line)
	}
	return b.String()
}
