package media

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
)

const (
	// maxAnswer caps a provider's answer read into memory (generated
	// images and speech included).
	maxAnswer = 64 << 20
	// anthropicVersion is the Messages API version Warren speaks.
	anthropicVersion = "2023-06-01"
)

// endpoint joins a provider's base URL and an API path. OpenAI-compatible
// base URLs end in /v1 (as chat uses them), so "/v1/x" and "/x" both work.
func endpoint(p Provider, path string) string {
	base := strings.TrimRight(p.BaseURL, "/")
	if strings.HasSuffix(base, "/v1") && strings.HasPrefix(path, "/v1/") {
		path = strings.TrimPrefix(path, "/v1")
	}
	return base + path
}

// send makes one request to p with its key injected; a non-2xx answer is
// an error holding an excerpt of the body. The caller closes the body.
func (e *env) send(ctx context.Context, p Provider, method, path, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, endpoint(p, path), body)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if p.Kind == ProviderAnthropic {
		req.Header.Set("anthropic-version", anthropicVersion)
		if p.APIKey != "" {
			req.Header.Set("x-api-key", p.APIKey)
		}
	} else if p.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.APIKey)
	}
	resp, err := e.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		_ = resp.Body.Close()
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	return resp, nil
}

// postJSON sends in as JSON and decodes the answer into out.
func (e *env) postJSON(ctx context.Context, p Provider, path string, in, out any) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := e.send(ctx, p, http.MethodPost, path, "application/json", bytes.NewReader(raw))
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	return decodeAnswer(resp.Body, out)
}

// postBytes sends in as JSON and returns the raw answer and its type.
func (e *env) postBytes(ctx context.Context, p Provider, path string, in any) ([]byte, string, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, "", err
	}
	resp, err := e.send(ctx, p, http.MethodPost, path, "application/json", bytes.NewReader(raw))
	if err != nil {
		return nil, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := readCapped(resp.Body, maxAnswer)
	return data, resp.Header.Get("Content-Type"), err
}

// postFile sends fields and one file as multipart/form-data and decodes
// the JSON answer into out.
func (e *env) postFile(ctx context.Context, p Provider, path string, fields map[string]string, fileName string, data []byte, out any) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		if v != "" {
			_ = mw.WriteField(k, v) // writes to memory
		}
	}
	fw, err := mw.CreateFormFile("file", fileName)
	if err != nil {
		return err
	}
	_, _ = fw.Write(data)
	if err := mw.Close(); err != nil {
		return err
	}
	resp, err := e.send(ctx, p, http.MethodPost, path, mw.FormDataContentType(), &buf)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	return decodeAnswer(resp.Body, out)
}

// readCapped reads r, refusing more than max bytes.
func readCapped(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("answer over %d MB", max>>20)
	}
	return data, nil
}

// decodeAnswer decodes a JSON answer body into out.
func decodeAnswer(body io.Reader, out any) error {
	if err := json.NewDecoder(io.LimitReader(body, maxAnswer)).Decode(out); err != nil {
		return fmt.Errorf("unreadable answer: %w", err)
	}
	return nil
}
