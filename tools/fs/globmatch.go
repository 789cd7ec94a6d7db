package fs

import (
	"path"
	"strings"
)

// globPattern matches slash paths with path.Match per component plus "**",
// which matches zero or more whole components.
type globPattern struct {
	comps []string
	// nameOnly patterns (no "/") match a file's base name, as in "*.go".
	nameOnly bool
}

// compileGlob validates p; an empty p yields a nil pattern (match all).
func compileGlob(p string) (*globPattern, error) {
	if p == "" {
		return nil, nil
	}
	p = strings.ReplaceAll(p, `\`, "/")
	comps, err := splitGlob(p)
	if err != nil {
		return nil, err
	}
	return &globPattern{comps: comps, nameOnly: !strings.Contains(p, "/")}, nil
}

func (g *globPattern) match(sub string) bool {
	if g.nameOnly {
		ok, _ := path.Match(g.comps[0], path.Base(sub))
		return ok
	}
	return matchComps(g.comps, strings.Split(sub, "/"))
}

// splitGlob splits a slash pattern into checked components, dropping empty
// and "." ones.
func splitGlob(p string) ([]string, error) {
	var comps []string
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "" || c == ".":
			continue
		case c == "..":
			return nil, errDotDotGlob
		case c != "**":
			if _, err := path.Match(c, ""); err != nil {
				return nil, err
			}
		}
		comps = append(comps, c)
	}
	if len(comps) == 0 {
		return nil, errEmptyGlob
	}
	return comps, nil
}

// matchComps matches name components against pattern components.
func matchComps(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:] // consecutive ** are one
			}
			if len(pat) == 0 {
				return true
			}
			for i := range len(name) + 1 {
				if matchComps(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

func hasMeta(comp string) bool { return strings.ContainsAny(comp, "*?[") }

func hasDoubleStar(comps []string) bool {
	for _, c := range comps {
		if c == "**" {
			return true
		}
	}
	return false
}
