package secrets

import "fmt"

// Sealer encrypts values at rest; *Box is the real one.
type Sealer interface {
	Seal(plain string) (string, error)
	Open(sealed string) (string, error)
}

// MergeEnv applies updates to a map of sealed values: a non-empty value is
// sealed and replaces, an empty one deletes the key. Env values are
// write-only in every UI, so an update never needs the old plain text.
func MergeEnv(s Sealer, sealed, updates map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(sealed)+len(updates))
	for k, v := range sealed {
		out[k] = v
	}
	for k, v := range updates {
		if v == "" {
			delete(out, k)
			continue
		}
		enc, err := s.Seal(v)
		if err != nil {
			return nil, err
		}
		out[k] = enc
	}
	return out, nil
}

// OpenEnv decrypts every value of a sealed map.
func OpenEnv(s Sealer, sealed map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(sealed))
	for k, v := range sealed {
		plain, err := s.Open(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = plain
	}
	return out, nil
}
