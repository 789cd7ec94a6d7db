package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/skills"
)

const skillsUsage = `skills list [--agent A] [--workspace DIR] [--json] | show NAME [--agent A] [--workspace DIR]
  | add DIR [--agent A] | remove NAME | grant NAME --agent A | revoke NAME --agent A
  | search QUERY [--agent A] [--workspace DIR] [--max N] [--json]`

// runSkills is `warren skills`: the skills agents find and the published ones.
func runSkills(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name a subcommand: list, show, add, remove, grant, revoke or search")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list", "show", "search":
		return skillsRead(ctx, env, sub, rest)
	case "add":
		return skillsAdd(ctx, env, rest)
	case "remove":
		return skillsRemove(ctx, env, rest)
	case "grant", "revoke":
		return skillsGrant(ctx, env, sub, rest)
	}
	return usagef("unknown subcommand %q: use list, show, add, remove, grant, revoke or search", sub)
}

// skillsRead lists, shows or searches the skills an agent has in a workspace.
func skillsRead(ctx context.Context, env Env, sub string, args []string) error {
	fs := flag.NewFlagSet("skills "+sub, flag.ContinueOnError)
	agent := fs.String("agent", "default", "the agent whose skills to look at")
	workspace := fs.String("workspace", "", "the workspace to look in (default: Warren's)")
	maxHits := fs.Int("max", 5, "how many hits (search)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	w, err := open(ctx, env, *workspace)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	all, problems, err := w.Skills().Available(ctx, *agent, w.Workspace())
	if err != nil {
		return err
	}
	switch sub {
	case "show":
		if len(pos) != 1 {
			return usagef("skills show takes one skill name")
		}
		// A published skill not granted to this agent is shown too, so its
		// grants can be read and changed from any agent.
		published, err := w.Skills().Published(ctx, "")
		if err != nil {
			return err
		}
		for _, s := range append(all, published...) {
			if s.Name == pos[0] {
				fmt.Fprintf(env.Stdout, "name:        %s\ndescription: %s\nfolder:      %s (%s)\n", s.Name, s.Description, s.Dir, s.Source)
				if s.Source == skills.SourceManaged {
					g, err := w.Skills().Grants(ctx, s.Name)
					if err != nil {
						return err
					}
					fmt.Fprintf(env.Stdout, "granted to:  %s\n", grantsText(g))
				}
				fmt.Fprintf(env.Stdout, "\n%s\n", s.Resolved())
				return nil
			}
		}
		return usagef("agent %s has no skill %q (warren skills list shows its skills)", *agent, pos[0])
	case "search":
		if len(pos) == 0 {
			return usagef("skills search needs a query")
		}
		hits := skills.Search(ctx, all, strings.Join(pos, " "), *maxHits, w.Memory().Embedder())
		if *asJSON {
			return printJSON(env, hits)
		}
		for i, h := range hits {
			fmt.Fprintf(env.Stdout, "%d. %s  score %.2f  keyword #%s  vector #%s\n   %s\n", i+1, h.Skill.Name, h.Score,
				rankText(h.KeywordRank), rankText(h.VectorRank), h.Skill.Description)
		}
		if len(hits) == 0 {
			fmt.Fprintln(env.Stdout, "no skill matches")
		}
		return nil
	}
	if len(pos) > 0 {
		return usagef("skills list takes no arguments")
	}
	grants := map[string][]string{}
	for _, s := range all {
		if s.Source == skills.SourceManaged {
			if grants[s.Name], err = w.Skills().Grants(ctx, s.Name); err != nil {
				return err
			}
		}
	}
	if *asJSON {
		return printJSON(env, map[string]any{"skills": all, "problems": problems, "grants": grants})
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tFROM\tGRANTED TO\tDESCRIPTION")
	for _, s := range all {
		from, to := string(s.Source), "-"
		if s.Version > 0 {
			from = fmt.Sprintf("%s v%d", from, s.Version)
		}
		if g, ok := grants[s.Name]; ok {
			to = grantsText(g)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, from, to, clip(s.Description, 70))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(all) == 0 {
		fmt.Fprintf(env.Stdout, "no skills for agent %s: put skill folders (each with a SKILL.md) in %s/skills, or warren skills add DIR\n", *agent, w.Workspace())
	}
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "warren: not a skill: %s\n", p.Err)
	}
	return nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func skillsAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("skills add", flag.ContinueOnError)
	agent := fs.String("agent", "*", "the agent that gets it (* for every agent)")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) != 1 {
		return usagef("skills add takes one skill folder (holding SKILL.md)")
	}
	s, err := w.Skills().Publish(ctx, pos[0], *agent, "user")
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(env.Stdout, "published skill %s version %d for %s\n", s.Name, s.Version, map[bool]string{true: "every agent", false: "agent " + *agent}[*agent == "*"])
	return nil
}

func skillsRemove(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("skills remove", flag.ContinueOnError)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) != 1 {
		return usagef("skills remove takes one published skill's name")
	}
	if err := w.Skills().Remove(ctx, pos[0]); err != nil {
		if errors.Is(err, skills.ErrNotFound) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "removed published skill %s (every version)\n", pos[0])
	return nil
}

// grantsText is who a published skill is granted to, in words.
func grantsText(g []string) string {
	switch {
	case slices.Contains(g, skills.EveryAgent):
		return "every agent"
	case len(g) == 0:
		return "no agent"
	}
	return strings.Join(g, ", ")
}

// skillsGrant is `warren skills grant|revoke NAME --agent A`: gives a
// published skill to another agent after the fact, or takes it away.
func skillsGrant(ctx context.Context, env Env, sub string, args []string) error {
	fs := flag.NewFlagSet("skills "+sub, flag.ContinueOnError)
	agent := fs.String("agent", "", "the agent (* for every agent)")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) != 1 || *agent == "" {
		return usagef("skills %s takes one published skill's name and --agent A (* for every agent)", sub)
	}
	change, verb := w.Skills().Grant, "granted"
	if sub == "revoke" {
		change, verb = w.Skills().Revoke, "revoked"
	}
	if err := change(ctx, pos[0], *agent); err != nil {
		if errors.Is(err, skills.ErrNotFound) || errors.Is(err, skills.ErrNoAgent) {
			return usagef("%v", err)
		}
		return err
	}
	g, err := w.Skills().Grants(ctx, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s skill %s for %s; granted to: %s\n", verb, pos[0], *agent, grantsText(g))
	return nil
}
