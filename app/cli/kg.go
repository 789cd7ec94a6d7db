package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools/knowledge"
)

const kgUsage = `kg search QUERY [--agent A] [--type T] [--depth N] [--as-of DATE] [--json] | show ID [--depth N] [--json]
  | add NAME --type T [--description D] [--agent A] [--from DATE] [--to DATE] | link ID RELATION ID [--from DATE] [--to DATE]
  | edit ID [--name N] [--type T] [--description D] | remove ID | unlink RELATION_ID`

// runKG is `warren kg`: the knowledge graph, searched and edited by hand.
func runKG(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name a subcommand: search, show, add, link, edit, remove or unlink")
	}
	sub, rest := args[0], args[1:]
	fs := flag.NewFlagSet("kg "+sub, flag.ContinueOnError)
	agent := fs.String("agent", "default", "the agent whose graph (with the global one)")
	typ := fs.String("type", "", "entity type: "+strings.Join(memory.EntityTypes, ", "))
	depth := fs.Int("depth", 2, "hops to walk (1-5)")
	asOf := fs.String("as-of", "", "only facts valid on this date")
	desc := fs.String("description", "", "one line about the entity")
	name := fs.String("name", "", "new name (edit)")
	from := fs.String("from", "", "valid from (date)")
	to := fs.String("to", "", "valid until (date)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, rest)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	m := w.Memory()
	id := func(i int) (int64, error) {
		if i >= len(pos) {
			return 0, usagef("kg %s needs an entity id (warren kg search shows them)", sub)
		}
		n, err := strconv.ParseInt(pos[i], 10, 64)
		if err != nil {
			return 0, usagef("kg %s: %q is not an id", sub, pos[i])
		}
		return n, nil
	}
	graphErr := func(err error) error {
		if errors.Is(err, memory.ErrBadGraph) || errors.Is(err, memory.ErrNotFound) {
			return usagef("%v", err)
		}
		return err
	}
	switch sub {
	case "search", "show":
		q := memory.GraphQuery{Agent: *agent, EntityType: *typ, MaxDepth: *depth, AsOf: *asOf}
		if sub == "show" {
			if q.EntityID, err = id(0); err != nil {
				return err
			}
		} else {
			q.Text = strings.Join(pos, " ")
		}
		g, err := m.SearchGraph(ctx, q)
		if err != nil {
			return graphErr(err)
		}
		if *asJSON {
			return printJSON(env, g)
		}
		fmt.Fprintln(env.Stdout, knowledge.FormatGraph(g))
		return nil
	case "add":
		if len(pos) == 0 {
			return usagef("kg add needs the entity's name")
		}
		a := *agent
		e, err := m.AddEntity(ctx, memory.Entity{Agent: a, Name: strings.Join(pos, " "), Type: *typ, Description: *desc, ValidFrom: *from, ValidTo: *to})
		if err != nil {
			return graphErr(err)
		}
		fmt.Fprintf(env.Stdout, "added entity %d: %s (%s)\n", e.ID, e.Name, e.Type)
		return nil
	case "link":
		if len(pos) != 3 {
			return usagef("kg link takes ID RELATION ID, e.g. kg link 3 works_on 7 (relations: %s)", strings.Join(memory.RelationTypes, ", "))
		}
		src, err := id(0)
		if err != nil {
			return err
		}
		dst, err := id(2)
		if err != nil {
			return err
		}
		r, err := m.Link(ctx, memory.Relation{Src: src, Dst: dst, Type: pos[1], ValidFrom: *from, ValidTo: *to})
		if err != nil {
			return graphErr(err)
		}
		fmt.Fprintf(env.Stdout, "linked: relation %d\n", r.ID)
		return nil
	case "edit":
		n, err := id(0)
		if err != nil {
			return err
		}
		cur, err := m.Entity(ctx, n)
		if err != nil {
			return graphErr(err)
		}
		if *name != "" {
			cur.Name = *name
		}
		if *typ != "" {
			cur.Type = *typ
		}
		if *desc != "" {
			cur.Description = *desc
		}
		if *from != "" {
			cur.ValidFrom = *from
		}
		if *to != "" {
			cur.ValidTo = *to
		}
		e, err := m.UpdateEntity(ctx, cur)
		if err != nil {
			return graphErr(err)
		}
		fmt.Fprintf(env.Stdout, "saved entity %d: %s (%s)\n", e.ID, e.Name, e.Type)
		return nil
	case "remove":
		n, err := id(0)
		if err != nil {
			return err
		}
		if err := m.DeleteEntity(ctx, n); err != nil {
			return graphErr(err)
		}
		fmt.Fprintf(env.Stdout, "removed entity %d and its relations\n", n)
		return nil
	case "unlink":
		n, err := id(0)
		if err != nil {
			return err
		}
		if err := m.Unlink(ctx, n); err != nil {
			return graphErr(err)
		}
		fmt.Fprintf(env.Stdout, "removed relation %d\n", n)
		return nil
	}
	return usagef("unknown subcommand %q: use search, show, add, link, edit, remove or unlink", sub)
}
