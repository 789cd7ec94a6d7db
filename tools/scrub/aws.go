package scrub

// awsKeyIDs are AWS access key IDs: long-term (AKIA) and temporary STS (ASIA), same shape.
var awsKeyIDs = [...]tokenFamily{
	{"AKIA", []prefixedToken{{"AKIA", upperAlnum, 16, false}}},
	{"ASIA", []prefixedToken{{"ASIA", upperAlnum, 16, false}}},
}

// awsSecretLen is the length of an AWS secret access key: 30 random bytes in base64, unpadded.
const awsSecretLen = 40

// awsSecretWindow is how far, in bytes either side of an access key ID, a bare secret access
// key is looked for. The pair is printed together (the IAM console's CSV, "id secret" lines,
// env dumps); a 40-character run on its own is too common (paths, identifiers) to redact.
const awsSecretWindow = 256

// findAWSKeys redacts AWS access key IDs and, near each one, any run shaped like its secret
// access key. Secrets written as aws_secret_access_key = … are found by findKeyValues whatever
// their neighbours.
func findAWSKeys(text string, out []span) []span {
	first := len(out)
	for _, f := range awsKeyIDs {
		out = f.find(text, out)
	}
	if len(out) == first {
		return out
	}
	windows := make([]span, 0, len(out)-first)
	for _, id := range out[first:] {
		windows = append(windows, span{max(0, id.start-awsSecretWindow), min(len(text), id.end+awsSecretWindow)})
	}
	for _, w := range mergeSpans(windows) { // disjoint and sorted, so each byte is read once
		out = findAWSSecrets(text, w, out)
	}
	return out
}

// findAWSSecrets appends the runs in w that look like a secret access key: exactly 40 bytes of
// [A-Za-z0-9/+], not glued to an identifier or to base64 padding, holding both cases. The last
// rule spares git SHAs (lower-case hex), upper-case hex digests and long constants.
func findAWSSecrets(text string, w span, out []span) []span {
	i := w.start
	for i > 0 && awsSecret[text[i-1]] {
		i-- // a run that starts before the window still counts as a whole
	}
	for i < w.end {
		if !awsSecret[text[i]] {
			i++
			continue
		}
		end := runWhile(text, i, awsSecret)
		if end-i == awsSecretLen && (i == 0 || !awsGlue[text[i-1]]) &&
			(end == len(text) || !awsGlue[text[end]] && text[end] != '=') && hasBothCases(text[i:end]) {
			out = append(out, span{i, end})
		}
		i = end
	}
	return out
}

func hasBothCases(s string) bool {
	var upper, lower bool
	for i := 0; i < len(s) && (!upper || !lower); i++ {
		upper = upper || 'A' <= s[i] && s[i] <= 'Z'
		lower = lower || 'a' <= s[i] && s[i] <= 'z'
	}
	return upper && lower
}
