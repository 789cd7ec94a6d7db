package warren

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/warren-dev/warren/backend/authprofiles"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/web"
)

// AuthProfiles lists url_fetch's auth profiles (never their secrets).
func (w *Warren) AuthProfiles(ctx context.Context) ([]authprofiles.Profile, error) {
	return w.auth.List(ctx)
}

// SaveAuthProfile stores a profile; an empty secret keeps the stored one.
func (w *Warren) SaveAuthProfile(ctx context.Context, p authprofiles.Profile, secret string) error {
	return w.auth.Save(ctx, p, secret)
}

// DeleteAuthProfile removes a profile.
func (w *Warren) DeleteAuthProfile(ctx context.Context, name string) error {
	return w.auth.Delete(ctx, name)
}

// webAuth hands url_fetch a profile's credential, only for the profile's
// hosts, and makes the scrubber hide the secret in every later result.
type webAuth struct{ w *Warren }

func (a webAuth) Credential(ctx context.Context, name string, u *url.URL) (string, string, error) {
	p, secret, err := a.w.auth.Get(ctx, name)
	if errors.Is(err, authprofiles.ErrNotFound) {
		var names []string
		if all, lerr := a.w.auth.List(ctx); lerr == nil {
			for _, x := range all {
				names = append(names, x.Name)
			}
		}
		have := "the user has set up none (warren auth add)"
		if len(names) > 0 {
			have = "the user's profiles: " + strings.Join(names, ", ")
		}
		return "", "", &web.AuthRefusal{Code: tools.CodeNotFound, Msg: fmt.Sprintf("no auth profile %q; %s", name, have)}
	}
	if err != nil {
		return "", "", err
	}
	if !p.Allows(u) {
		return "", "", &web.AuthRefusal{Code: tools.CodeSecurity,
			Msg: fmt.Sprintf("auth profile %s may be sent only to %s, not to %s", name, strings.Join(p.Hosts, ", "), u.Host)}
	}
	cred := p.Credential(secret)
	a.w.scrubber.AddValues(cred.Secrets...)
	return cred.Header, cred.Value, nil
}
