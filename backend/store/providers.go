package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	"github.com/warren-dev/warren/backend/secrets"
)

// Provider kinds.
const (
	ProviderOpenAI    = "openai"    // any OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp, vLLM…)
	ProviderAnthropic = "anthropic" // the Anthropic Messages API
)

// Provider is a configured LLM endpoint. APIKey is write-only: it is sealed
// with the keychain-held key and never read back by List.
type Provider struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	BaseURL      string `json:"base_url"`
	APIKey       string `json:"api_key,omitempty"`
	HasKey       bool   `json:"has_key"`
	DefaultModel string `json:"default_model"`
	// ToolMode is "native" (default) or "emulated" for models without tool
	// calling.
	ToolMode string `json:"tool_mode"`
}

// Providers stores LLM provider settings.
type Providers struct {
	db  *sql.DB
	box secrets.Sealer
}

// NewProviders returns the provider store.
func NewProviders(db *DB, box secrets.Sealer) *Providers { return &Providers{db: db.sql, box: box} }

// Save validates and stores p; an empty APIKey keeps the stored key, and
// the key "-" removes it.
func (s *Providers) Save(ctx context.Context, p Provider) error {
	if !agentKeyRE.MatchString(p.Name) {
		return fmt.Errorf("provider name %q: use 1-64 lower-case letters, digits, _ or -", p.Name)
	}
	if p.Kind != ProviderOpenAI && p.Kind != ProviderAnthropic {
		return fmt.Errorf("provider %s: kind %q must be openai or anthropic", p.Name, p.Kind)
	}
	switch p.ToolMode {
	case "":
		p.ToolMode = "native"
	case "native", "emulated":
	default:
		return fmt.Errorf("provider %s: tool mode %q must be native or emulated", p.Name, p.ToolMode)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("provider %s: base URL %q must be an http(s) URL such as http://127.0.0.1:11434/v1", p.Name, p.BaseURL)
	}
	sealed := ""
	switch p.APIKey {
	case "":
		_ = s.db.QueryRowContext(ctx, "SELECT api_key_sealed FROM providers WHERE name = ?", p.Name).Scan(&sealed)
	case "-":
	default:
		if sealed, err = s.box.Seal(p.APIKey); err != nil {
			return err
		}
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO providers (name, kind, base_url, api_key_sealed, default_model, tool_mode) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url, api_key_sealed = excluded.api_key_sealed,
		default_model = excluded.default_model, tool_mode = excluded.tool_mode, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		p.Name, p.Kind, p.BaseURL, sealed, p.DefaultModel, p.ToolMode)
	if err != nil {
		return fmt.Errorf("save provider %s: %w", p.Name, err)
	}
	return nil
}

// Get returns a provider with its API key decrypted.
func (s *Providers) Get(ctx context.Context, name string) (Provider, error) {
	var p Provider
	var sealed string
	err := s.db.QueryRowContext(ctx, "SELECT name, kind, base_url, api_key_sealed, default_model, tool_mode FROM providers WHERE name = ?", name).
		Scan(&p.Name, &p.Kind, &p.BaseURL, &sealed, &p.DefaultModel, &p.ToolMode)
	if errors.Is(err, sql.ErrNoRows) {
		return Provider{}, fmt.Errorf("provider %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Provider{}, fmt.Errorf("get provider %s: %w", name, err)
	}
	if sealed != "" {
		if p.APIKey, err = s.box.Open(sealed); err != nil {
			return Provider{}, fmt.Errorf("provider %s API key: %w", name, err)
		}
		p.HasKey = true
	}
	return p, nil
}

// List returns every provider without API keys.
func (s *Providers) List(ctx context.Context) ([]Provider, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, kind, base_url, api_key_sealed != '', default_model, tool_mode FROM providers ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("list providers: %w", err)
	}
	defer rows.Close()
	var out []Provider
	for rows.Next() {
		var p Provider
		if err := rows.Scan(&p.Name, &p.Kind, &p.BaseURL, &p.HasKey, &p.DefaultModel, &p.ToolMode); err != nil {
			return nil, fmt.Errorf("list providers: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Delete removes a provider.
func (s *Providers) Delete(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM providers WHERE name = ?", name)
	if err != nil {
		return fmt.Errorf("delete provider %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("provider %q: %w", name, ErrNotFound)
	}
	return nil
}
