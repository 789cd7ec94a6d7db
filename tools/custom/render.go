package custom

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Render fills {{.key}} placeholders with shell-escaped argument values:
// every value becomes one single-quoted word, so no argument can add
// commands, expansions or words. Missing optional arguments become an
// empty quoted word.
func Render(command string, args map[string]any) (string, error) {
	var firstErr error
	out := placeholderRE.ReplaceAllStringFunc(command, func(m string) string {
		key := placeholderRE.FindStringSubmatch(m)[1]
		s, err := text(args[key])
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("argument %q: %w", key, err)
		}
		return Quote(s)
	})
	return out, firstErr
}

// Quote wraps s in single quotes, escaping embedded single quotes as '\”.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func text(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		if strings.ContainsRune(x, 0) {
			return "", fmt.Errorf("contains a NUL byte")
		}
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case json.Number:
		return x.String(), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
}
