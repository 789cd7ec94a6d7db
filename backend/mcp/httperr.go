package mcp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/mark3labs/mcp-go/client/transport"
)

// httpTrace records the status of the last answer to each HTTP method, so
// an error can name it: the transport folds 400, 403, 404 and 405 into one
// "likely a legacy SSE server".
type httpTrace struct {
	base http.RoundTripper
	mu   sync.Mutex
	last map[string]int
}

func newHTTPTrace() *httpTrace {
	return &httpTrace{base: http.DefaultTransport.(*http.Transport).Clone(), last: map[string]int{}}
}

// RoundTrip implements http.RoundTripper.
func (h *httpTrace) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := h.base.RoundTrip(r)
	if err == nil {
		h.mu.Lock()
		h.last[r.Method] = resp.StatusCode
		h.mu.Unlock()
	}
	return resp, err
}

func (h *httpTrace) status(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last[method]
}

// httpError is a transport failure said plainly, naming the URL; Status
// is the HTTP status the server answered with (0 when it did not answer).
type httpError struct {
	msg    string
	Status int
	err    error
}

func (e *httpError) Error() string { return e.msg }
func (e *httpError) Unwrap() error { return e.err }

// statusInError finds the HTTP status in the transport's messages
// ("unexpected status code: 404", "request failed with status 500: …").
var statusInError = regexp.MustCompile(`status(?: code)?:? ([1-5][0-9][0-9])\b`)

// describeHTTPError says what went wrong talking to rawURL, in one sentence:
// the HTTP status the server answered with, or the network, DNS or TLS
// failure.
func describeHTTPError(rawURL string, err error, trace *httpTrace) error {
	if err == nil {
		return nil
	}
	var he *httpError
	if errors.As(err, &he) {
		return err
	}
	status := 0
	var authErr *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &authErr), errors.Is(err, transport.ErrUnauthorized), errors.Is(err, transport.ErrAuthorizationRequired):
		status = http.StatusUnauthorized
	case errors.Is(err, transport.ErrLegacySSEServer):
		status = trace.status(http.MethodPost)
	default:
		if m := statusInError.FindStringSubmatch(err.Error()); m != nil {
			status, _ = strconv.Atoi(m[1])
		}
	}
	if status >= 400 {
		return &httpError{msg: statusSentence(rawURL, status), Status: status, err: err}
	}
	return &httpError{msg: networkSentence(rawURL, err), err: err}
}

func statusSentence(rawURL string, status int) string {
	line := fmt.Sprintf("%d %s", status, http.StatusText(status))
	switch status {
	case http.StatusUnauthorized:
		return fmt.Sprintf("%s refused the request: %s (the token is missing or wrong: set it with --header Authorization=\"Bearer …\")", rawURL, line)
	case http.StatusForbidden:
		return fmt.Sprintf("%s refused access: %s (the token or this client is not allowed)", rawURL, line)
	case http.StatusNotFound:
		return fmt.Sprintf("%s answered %s: no MCP endpoint at this path (servers often use /mcp for streamable HTTP and /sse for SSE)", rawURL, line)
	case http.StatusMethodNotAllowed:
		return fmt.Sprintf("%s answered %s: it does not take MCP requests at this path", rawURL, line)
	case http.StatusBadRequest:
		return fmt.Sprintf("%s answered %s: it did not understand the MCP request (is this an MCP endpoint of this transport?)", rawURL, line)
	}
	if status >= 500 {
		return fmt.Sprintf("%s answered %s: the server failed (see its own log)", rawURL, line)
	}
	return fmt.Sprintf("%s answered %s", rawURL, line)
}

func networkSentence(rawURL string, err error) string {
	host := rawURL
	if u, perr := url.Parse(rawURL); perr == nil {
		host = u.Hostname()
	}
	var dnsErr *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &dnsErr):
		why := dnsErr.Err
		if dnsErr.IsNotFound {
			why = "no such host"
		}
		return fmt.Sprintf("cannot find host %s of %s: %s", host, rawURL, why)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("nothing is listening at %s (connection refused): is the server running?", rawURL)
	case errors.Is(err, syscall.ECONNRESET):
		return fmt.Sprintf("%s closed the connection (reset by the server)", rawURL)
	case errors.As(err, &unknownCA):
		return fmt.Sprintf("%s: its TLS certificate is not trusted (signed by an unknown authority)", rawURL)
	case errors.As(err, &badHost):
		return fmt.Sprintf("%s: its TLS certificate is not valid for %s", rawURL, host)
	case errors.As(err, &invalid):
		return fmt.Sprintf("%s: its TLS certificate is invalid: %v", rawURL, invalid)
	case errors.As(err, &verify):
		return fmt.Sprintf("%s: its TLS certificate could not be verified: %v", rawURL, verify.Err)
	case errors.As(err, &recordErr), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return fmt.Sprintf("%s is an https:// address, but the server speaks plain HTTP (use http://)", rawURL)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("no answer from %s in time", rawURL)
	}
	return fmt.Sprintf("%s: %s", rawURL, plainError(err))
}

// plainError is err's message without the transport's repeated
// "failed to send request: " and "transport error: " prefixes.
func plainError(err error) string {
	msg := err.Error()
	for _, p := range []string{"transport error: ", "failed to send request: ", "failed to connect to SSE stream: "} {
		for strings.Contains(msg, p) {
			msg = strings.Replace(msg, p, "", 1)
		}
	}
	return msg
}

// legacySSECandidate reports whether a streamable HTTP initialize was
// refused the way the MCP spec's backwards-compatibility section says an
// older HTTP+SSE server refuses it (400, 404 or 405).
func legacySSECandidate(err error) bool {
	var he *httpError
	if !errors.As(err, &he) {
		return false
	}
	switch he.Status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}
