package system

import (
	"context"
	_ "embed"
	"os"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed get_env.md
var getEnvDoc string

// GetEnvParams are the parameters of get_env.
type GetEnvParams struct {
	Name string `json:"name" description:"Environment variable name, e.g. PATH or LANG"`
}

// sensitiveEnvMarkers are name fragments that mark a variable as a secret.
var sensitiveEnvMarkers = []string{"KEY", "SECRET", "TOKEN", "PASSWORD", "CREDENTIAL"}

// IsSensitiveEnvName reports whether a variable name looks like a secret.
func IsSensitiveEnvName(name string) bool {
	upper := strings.ToUpper(name)
	for _, m := range sensitiveEnvMarkers {
		if strings.Contains(upper, m) {
			return true
		}
	}
	return false
}

func newGetEnv(d Deps) (tools.Tool, error) {
	lookup := d.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return tools.New(tools.Spec{
		Name: "get_env", Group: "system", LongDescription: getEnvDoc,
		Description: "Read an environment variable (secret-looking names are refused).",
	}, func(_ context.Context, p GetEnvParams) (tools.Result, error) {
		name := strings.TrimSpace(p.Name)
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return tools.Errorf(tools.CodeValidation, "invalid variable name %q", p.Name), nil
		}
		if IsSensitiveEnvName(name) {
			return tools.Errorf(tools.CodeSecurity, "%s looks like a secret (its name contains KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL); it is not readable by agents", name), nil
		}
		v, ok := lookup(name)
		if !ok {
			return tools.Errorf(tools.CodeNotFound, "environment variable %s is not set", name), nil
		}
		return tools.Text(v), nil
	})
}
