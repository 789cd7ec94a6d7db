package cron

import "testing"

// The same cases are in frontend/tests/schedules.test.ts: the form shows
// the name the backend will store.
func TestNameFromPrompt(t *testing.T) {
	t.Parallel()
	tests := []struct{ prompt, want string }{
		{"summarise what changed in my notes since yesterday.", "Summarise what changed in my notes since yesterday"},
		{"\n\n  Check   the\tbuild  \nthen more lines", "Check the build"},
		{"Write a long report about every single thing that happened in the repository this week and more", "Write a long report about every single thing that happened…"},
		{"Averyveryveryveryveryveryveryveryveryveryveryveryveryverylongwordwithoutspaces", "Averyveryveryveryveryveryveryveryveryveryveryveryveryverylo…"},
		{"élan: café?", "Élan: café"},
		{"   \n  ", "Scheduled prompt"},
	}
	for _, tt := range tests {
		if got := NameFromPrompt(tt.prompt); got != tt.want {
			t.Errorf("NameFromPrompt(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}
