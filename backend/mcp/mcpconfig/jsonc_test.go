package mcpconfig

import "testing"

func TestStripJSONC(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain JSON is unchanged", `{"a": [1, "b,]"], "c": {}}`, `{"a": [1, "b,]"], "c": {}}`},
		{"line comment", "{\"a\": 1 // note\n}", "{\"a\": 1        \n}"},
		{"line comment at the end", "{} // x", "{}     "},
		{"block comment keeps newlines", "{/* a\nb */\"a\": 1}", "{    \n    \"a\": 1}"},
		{"comment markers inside strings", `{"u": "http://x/*y*/", "v": "a\"//b"}`, `{"u": "http://x/*y*/", "v": "a\"//b"}`},
		{"escaped backslash before quote", `{"a": "\\", "b": 1, }`, `{"a": "\\", "b": 1  }`},
		{"trailing commas", "[1, 2,\n]", "[1, 2 \n]"},
		{"trailing comma before a comment", "{\"a\": 1, // c\n}", "{\"a\": 1      \n}"},
		{"nested trailing commas", `{"a": [1,],}`, `{"a": [1 ] }`},
		{"empty containers keep their comma", `[,]`, `[,]`},
		{"double comma kept", `[1,,]`, `[1,,]`},
		{"leading comma kept", `{,}`, `{,}`},
		{"byte order mark", "\xef\xbb\xbf{}", "   {}"},
		{"unterminated block comment is left for JSON to report", "{} /* x", "{} /* x"},
		{"lone slash", "{}/", "{}/"},
		{"comma at the end of input", "[1,", "[1,"},
		{"comma before a value", "[1, 2]", "[1, 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := []byte(tt.in)
			got := stripJSONC(in)
			if string(got) != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if len(got) != len(tt.in) {
				t.Fatalf("length changed: %d -> %d", len(tt.in), len(got))
			}
			if string(in) != tt.in {
				t.Fatal("input modified")
			}
		})
	}
}
