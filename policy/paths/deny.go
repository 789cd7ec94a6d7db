package paths

import (
	"path"
	"slices"
	"strings"
)

// AddDeny adds workspace-relative prefixes that every later Resolve refuses
// (the PathDenyable idea: callers can deny more at run time).
func (r *Resolver) AddDeny(prefixes ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range prefixes {
		comps := splitRel(p)
		if comps == nil {
			continue
		}
		if slices.ContainsFunc(r.deny, func(d []string) bool { return equalFoldComps(d, comps) }) {
			continue
		}
		r.deny = append(r.deny, comps)
	}
}

// IsDenied reports whether rel, relative to the workspace, equals or lies
// under a denied prefix. Components compare case-insensitively on every
// platform, because on macOS and Windows ".WARREN" opens ".warren"; on Linux
// this only over-denies look-alike names. The workspace root is never denied.
func (r *Resolver) IsDenied(rel string) bool {
	_, denied := r.deniedBy(rel)
	return denied
}

// deniedBy returns the deny prefix rel falls under, for error messages.
func (r *Resolver) deniedBy(rel string) (string, bool) {
	comps := splitRel(rel)
	if comps == nil {
		return "", false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, d := range r.deny {
		if len(comps) >= len(d) && equalFoldComps(d, comps[:len(d)]) {
			return strings.Join(d, "/"), true
		}
	}
	return "", false
}

// DeniedBelow reports whether sub, a slash path below res, is denied. Listing
// tools use it to hide denied entries; it checks the path both as written and
// as reached through symlinks, so a link to the workspace cannot unhide them.
func (r *Resolver) DeniedBelow(res Resolved, sub string) bool {
	if res.Alias == "" && r.IsDenied(path.Join(res.Rel, sub)) {
		return true
	}
	return res.realRel != "" && r.IsDenied(path.Join(res.realRel, sub))
}

// splitRel cleans a slash or backslash path and splits it into components,
// returning nil for the root. It is rooted before cleaning so ".." cannot
// climb above the workspace, and a leading "/" is dropped: deny prefixes are
// always workspace-relative.
func splitRel(p string) []string {
	p = path.Clean("/" + strings.ReplaceAll(p, `\`, "/"))
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

func equalFoldComps(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}
