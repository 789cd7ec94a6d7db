package policy

import (
	"cmp"
	"slices"
	"strings"
)

// Suggest returns up to three of known close to an unknown name: near in
// spelling, or sharing a word ("nonexistent_tool" → "tool_search"). The
// window's forms use the same rule (frontend/src/lib/settings.ts
// suggestNames), so the CLI and the UI offer the same names.
func Suggest(entry string, known []string) []string {
	e := strings.ToLower(entry)
	if e == "" {
		return nil
	}
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == ':' || r == '-' })
	}
	words := map[string]bool{}
	for _, w := range split(e) {
		if len(w) > 2 {
			words[w] = true
		}
	}
	type scored struct {
		name  string
		score int
	}
	var out []scored
	for _, k := range known {
		lk := strings.ToLower(k)
		d := editDistance(e, lk)
		near := d <= max(2, len(e)/3) || strings.Contains(k, e) || strings.Contains(e, k)
		shared := slices.ContainsFunc(split(lk), func(w string) bool { return words[w] })
		switch {
		case near:
			out = append(out, scored{k, d})
		case shared:
			out = append(out, scored{k, 100 + d})
		}
	}
	slices.SortFunc(out, func(a, b scored) int { return cmp.Or(a.score-b.score, strings.Compare(a.name, b.name)) })
	names := make([]string, 0, 3)
	for _, s := range out[:min(3, len(out))] {
		names = append(names, s.name)
	}
	return names
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// didYouMean is " (did you mean a or b?)", or "" without suggestions.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}
