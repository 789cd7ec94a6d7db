package skills

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/memory/embed"
	sk "github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/tools"
)

//go:embed skill_search.md
var skillSearchDoc string

// SkillSearchParams are the parameters of skill_search.
type SkillSearchParams struct {
	Query      string `json:"query" description:"The job you need a skill for"`
	MaxResults int    `json:"max_results,omitempty" description:"How many skills to show (default 5, at most 20)"`
}

func newSkillSearch(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "skill_search", Group: "knowledge", LongDescription: skillSearchDoc, Danger: tools.DangerSafe,
		Description: "Find skills (instructions for a kind of task) by keywords and meaning; then load one with use_skill.",
	}, func(ctx context.Context, p SkillSearchParams) (tools.Result, error) {
		if strings.TrimSpace(p.Query) == "" {
			return tools.Errorf(tools.CodeValidation, "skill_search needs a query"), nil
		}
		if p.MaxResults < 0 || p.MaxResults > 20 {
			return tools.Errorf(tools.CodeValidation, "max_results must be between 1 and 20, not %d", p.MaxResults), nil
		}
		all, problems, err := d.available(ctx)
		if err != nil {
			return tools.Result{}, err
		}
		if len(all) == 0 {
			msg := "No skills are available to you: put skill folders (each with a SKILL.md) in your workspace's skills/ folder."
			if len(problems) > 0 {
				msg += fmt.Sprintf(" %d folder(s) there are not valid skills, e.g. %s", len(problems), problems[0].Err)
			}
			return tools.Text(msg), nil
		}
		var e embed.Embedder
		if d.Embedder != nil {
			e = d.Embedder()
		}
		hits := sk.Search(ctx, all, p.Query, p.MaxResults, e)
		if len(hits) == 0 {
			return tools.Text(fmt.Sprintf("None of your %d skills matches %q.", len(all), p.Query)), nil
		}
		var b strings.Builder
		for i, h := range hits {
			fmt.Fprintf(&b, "%d. %s — %s\n   score %.2f [keyword rank %s, vector rank %s], %s skill\n", i+1, h.Skill.Name,
				h.Skill.Description, h.Score, rank(h.KeywordRank), rank(h.VectorRank), h.Skill.Source)
		}
		return tools.Text(strings.TrimRight(b.String(), "\n")), nil
	})
}

func rank(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
