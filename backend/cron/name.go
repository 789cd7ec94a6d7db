package cron

import (
	"strings"
	"unicode"
)

// maxDerivedName bounds a name made from a prompt: a label for a list row.
const maxDerivedName = 60

// NameFromPrompt makes a job's name from its prompt when the user gave
// none: the first line, whitespace collapsed, cut at a word near 60
// characters with "…", first letter upper-case ("Summarise my notes").
// The UI shows the same name while the prompt is typed (schedules.ts).
func NameFromPrompt(prompt string) string {
	line := ""
	for l := range strings.SplitSeq(prompt, "\n") {
		if line = strings.Join(strings.Fields(l), " "); line != "" {
			break
		}
	}
	line = strings.TrimRight(line, ".!?:;,… ")
	r := []rune(line)
	if len(r) > maxDerivedName {
		cut := maxDerivedName - 1
		if sp := strings.LastIndex(string(r[:maxDerivedName]), " "); sp >= 0 && len([]rune(line[:sp])) >= 20 {
			cut = len([]rune(line[:sp]))
		}
		r = append([]rune(strings.TrimRight(string(r[:cut]), ".!?:;,… ")), '…')
	}
	if len(r) == 0 {
		return "Scheduled prompt"
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
