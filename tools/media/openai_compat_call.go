package media

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/warren-dev/warren/tools"
)

//go:embed openai_compat_call.md
var openAICompatCallDoc string

// maxCompatText caps the text of an answer handed back to the model.
const maxCompatText = 64 << 10

// OpenAICompatCallParams are openai_compat_call's parameters.
type OpenAICompatCallParams struct {
	Provider string          `json:"provider" description:"Name of a configured provider (warren providers list)"`
	Path     string          `json:"path" description:"API path under the provider's base URL, e.g. /v1/embeddings or /models"`
	Method   string          `json:"method,omitempty" description:"GET or POST (default POST; GET when body is empty)"`
	Body     json.RawMessage `json:"body,omitempty" description:"JSON request body"`
}

func newOpenAICompatCall(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "openai_compat_call", Group: "media_gen", LongDescription: openAICompatCallDoc, Danger: tools.DangerWarning,
		Description: "Call any endpoint of a configured OpenAI-compatible provider with its key injected; binary answers are saved to media/.",
	}, e.compatCall)
}

func (e *env) compatCall(ctx context.Context, p OpenAICompatCallParams) (tools.Result, error) {
	if strings.TrimSpace(p.Provider) == "" {
		return tools.Errorf(tools.CodeValidation, "provider is required (a name from warren providers list)"), nil
	}
	if msg := checkAPIPath(p.Path); msg != "" {
		return tools.Errorf(tools.CodeValidation, "path %q: %s", p.Path, msg), nil
	}
	method := strings.ToUpper(p.Method)
	switch {
	case method == "" && len(p.Body) == 0:
		method = http.MethodGet
	case method == "":
		method = http.MethodPost
	case method != http.MethodGet && method != http.MethodPost:
		return tools.Errorf(tools.CodeValidation, "method %q: use GET or POST", p.Method), nil
	}
	if len(p.Body) > 0 && !json.Valid(p.Body) {
		return tools.Errorf(tools.CodeValidation, "body is not valid JSON"), nil
	}
	pr, err := e.Provider(ctx, p.Provider)
	if err != nil {
		return tools.Errorf(tools.CodeNotFound, "provider %q: %v (see warren providers list)", p.Provider, err), nil
	}
	e.Secret(pr.APIKey)
	if !sameHost(endpoint(pr, p.Path), pr.BaseURL) {
		return tools.Errorf(tools.CodeSecurity, "path %q leaves the provider's host; refused", p.Path), nil
	}
	var body *bytes.Reader
	ctype := ""
	if method == http.MethodPost {
		body, ctype = bytes.NewReader(p.Body), "application/json"
	} else {
		body = bytes.NewReader(nil)
	}
	resp, err := e.send(ctx, pr, method, p.Path, ctype, body)
	if err != nil {
		return tools.Errorf(tools.CodeNetwork, "%s %s on %s: %s", method, p.Path, pr.Name, scrubKey(err.Error(), pr.APIKey)), nil
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := readCapped(resp.Body, maxAnswer)
	if err != nil {
		return tools.Errorf(tools.CodeNetwork, "%s %s on %s: %v", method, p.Path, pr.Name, err), nil
	}
	if isTextAnswer(resp.Header.Get("Content-Type"), data) {
		text := scrubKey(string(data), pr.APIKey)
		if len(text) > maxCompatText {
			text = strings.ToValidUTF8(text[:maxCompatText], "") + fmt.Sprintf("\n[cut: the answer is %d bytes]", len(data))
		}
		return tools.Text(fmt.Sprintf("HTTP %d from %s %s:\n%s", resp.StatusCode, pr.Name, p.Path, text)), nil
	}
	display, mt, fail, ok := e.saveOutput(ctx, "answer", data)
	if !ok {
		return fail, nil
	}
	return saved("the binary answer", display, mt, len(data), pr.Name), nil
}

// checkAPIPath accepts a relative API path: it starts with one slash, has
// no scheme, host, fragment, ".." or control characters. "" means fine.
func checkAPIPath(p string) string {
	switch {
	case !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//"):
		return "must start with a single / (a path under the provider's base URL)"
	case strings.ContainsAny(p, "#\\") || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "must not hold #, \\ or control characters"
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "must be a path, not a URL"
	}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if seg == ".." || seg == "." {
			return "must not hold . or .. segments"
		}
	}
	if dec, err := url.PathUnescape(u.EscapedPath()); err != nil || strings.Contains(dec, "..") {
		return "must not hold encoded .. segments"
	}
	return ""
}

// isTextAnswer tells text (JSON, text/*, UTF-8) from binary answers.
func isTextAnswer(ctype string, data []byte) bool {
	mt, _, _ := mime.ParseMediaType(ctype)
	switch {
	case strings.HasPrefix(mt, "text/"), mt == "application/json", strings.HasSuffix(mt, "+json"):
		return true
	case strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "audio/"), strings.HasPrefix(mt, "video/"):
		return false
	}
	return utf8.Valid(data) && !bytes.ContainsRune(data, 0)
}
