package system

import (
	"context"
	_ "embed"
	"os"
	"slices"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed get_env.md
var getEnvDoc string

// GetEnvParams are the parameters of get_env.
type GetEnvParams struct {
	Name string `json:"name" description:"Environment variable name, e.g. PATH or LANG"`
}

// sensitiveEnvMarkers are name fragments that mark a variable as a secret. They are matched
// anywhere in the upper-cased name, so DB_PASSWORD, my_api_key and SLACK_WEBHOOK_URL count.
var sensitiveEnvMarkers = []string{
	"PASS", "PWD", "SECRET", "TOKEN", "KEY", "AUTH", "COOKIE", "CREDENTIAL", "PRIVATE", "WEBHOOK",
}

// workingDirVars contain PWD but hold the shell's current and previous working directory, not
// a password, so they stay readable. Only these exact (case-sensitive) names are exempt:
// DB_PWD or a lower-case pwd may well be a password.
var workingDirVars = []string{"PWD", "OLDPWD"}

// sensitiveEnvMarker returns the marker that makes name secret-looking, if any.
func sensitiveEnvMarker(name string) (string, bool) {
	if slices.Contains(workingDirVars, name) {
		return "", false
	}
	upper := strings.ToUpper(name)
	for _, m := range sensitiveEnvMarkers {
		if strings.Contains(upper, m) {
			return m, true
		}
	}
	return "", false
}

// IsSensitiveEnvName reports whether a variable name looks like a secret.
func IsSensitiveEnvName(name string) bool {
	_, ok := sensitiveEnvMarker(name)
	return ok
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
		if marker, ok := sensitiveEnvMarker(name); ok {
			return tools.Errorf(tools.CodeSecurity,
				"%s looks like a secret: its name contains %s, and get_env refuses names containing any of %s (PWD and OLDPWD excepted); ask the user instead",
				name, marker, strings.Join(sensitiveEnvMarkers, ", ")), nil
		}
		v, ok := lookup(name)
		if !ok {
			return tools.Errorf(tools.CodeNotFound, "environment variable %s is not set", name), nil
		}
		return tools.Text(v), nil
	})
}
