// Package authprofiles keeps the credentials url_fetch may send for an
// agent (seed 003: auth_profile). The model names a profile; Warren adds
// the header itself, only for the hosts the user bound the profile to, and
// the secret is scrubbed from whatever comes back.
package authprofiles

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Kinds of credential.
const (
	// KindBearer sends "Authorization: Bearer SECRET".
	KindBearer = "bearer"
	// KindBasic sends "Authorization: Basic base64(USERNAME:SECRET)".
	KindBasic = "basic"
	// KindHeader sends "HEADER: SECRET" (an API-key header such as X-API-Key).
	KindHeader = "header"
)

// Profile is one auth profile as listed: never its secret.
type Profile struct {
	Name string `json:"name"`
	// Hosts are the host or host:port entries the credential may go to.
	Hosts []string `json:"hosts"`
	Kind  string   `json:"kind"`
	// Header is the header name of a KindHeader profile.
	Header string `json:"header,omitempty"`
	// Username is a KindBasic profile's user.
	Username string `json:"username,omitempty"`
	// HasSecret says a secret is stored.
	HasSecret bool `json:"has_secret"`
}

// ErrNotFound is returned for a profile that does not exist.
var ErrNotFound = errors.New("auth profile not found")

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	headerRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,63}$`)
	hostRE   = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$`)
)

// Validate checks a profile and normalises its hosts (lower case, no
// duplicates).
func (p *Profile) Validate() error {
	if !nameRE.MatchString(p.Name) {
		return fmt.Errorf("auth profile name %q: 1-64 lower-case letters, digits, _ or -", p.Name)
	}
	if len(p.Hosts) == 0 {
		return fmt.Errorf("auth profile %s: name at least one host it may be sent to (e.g. api.github.com)", p.Name)
	}
	var hosts []string
	for _, h := range p.Hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if err := checkHost(h); err != nil {
			return fmt.Errorf("auth profile %s: %w", p.Name, err)
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	p.Hosts = hosts
	switch p.Kind {
	case KindBearer:
	case KindBasic:
		if p.Username == "" || strings.ContainsAny(p.Username, ":\r\n") {
			return fmt.Errorf("auth profile %s: a basic profile needs a username without ':' or line breaks", p.Name)
		}
	case KindHeader:
		lh := strings.ToLower(p.Header)
		if !headerRE.MatchString(p.Header) || lh == "host" || lh == "cookie" || strings.HasPrefix(lh, "proxy-") {
			return fmt.Errorf("auth profile %s: header %q is not a header name a credential may use", p.Name, p.Header)
		}
	default:
		return fmt.Errorf("auth profile %s: kind %q: use bearer, basic or header", p.Name, p.Kind)
	}
	return nil
}

// checkHost accepts "host" or "host:port": a DNS name or an IP literal,
// never a URL or a wildcard (a credential goes to exactly the hosts named).
func checkHost(h string) error {
	if strings.ContainsAny(h, "/@?#*") {
		return fmt.Errorf("host %q: a host name or host:port, not a URL or a pattern", h)
	}
	name, port := h, ""
	if host, p, err := net.SplitHostPort(h); err == nil {
		name, port = host, p
	}
	if port != "" {
		var n int
		if _, err := fmt.Sscanf(port, "%d", &n); err != nil || n < 1 || n > 65535 || fmt.Sprint(n) != port {
			return fmt.Errorf("host %q: the port must be 1-65535", h)
		}
	}
	if net.ParseIP(strings.Trim(name, "[]")) != nil {
		return nil
	}
	if !hostRE.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("host %q: a host name or host:port, not a URL or a pattern", h)
	}
	return nil
}

// Allows reports whether the credential may go to u: its host must be one
// of the profile's entries, with the port when the entry names one.
func (p Profile) Allows(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	for _, h := range p.Hosts {
		if eh, ep, err := net.SplitHostPort(h); err == nil {
			if strings.Trim(eh, "[]") == host && ep == port {
				return true
			}
			continue
		}
		if strings.Trim(h, "[]") == host {
			return true
		}
	}
	return false
}

// Credential is what a request carries for a profile.
type Credential struct {
	Header, Value string
	// Secrets are the values to scrub from anything shown afterwards.
	Secrets []string
}

// Credential builds the header for secret.
func (p Profile) Credential(secret string) Credential {
	switch p.Kind {
	case KindBasic:
		enc := base64.StdEncoding.EncodeToString([]byte(p.Username + ":" + secret))
		return Credential{Header: "Authorization", Value: "Basic " + enc, Secrets: []string{secret, enc}}
	case KindHeader:
		return Credential{Header: http.CanonicalHeaderKey(p.Header), Value: secret, Secrets: []string{secret}}
	}
	return Credential{Header: "Authorization", Value: "Bearer " + secret, Secrets: []string{secret}}
}
