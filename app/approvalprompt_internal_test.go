package app

import "testing"

func TestChoosePrompt(t *testing.T) {
	t.Parallel()
	all := promptState{Pending: true, Dialogs: true, HasDialog: true, HasNotify: true}
	cases := []struct {
		name string
		edit func(*promptState)
		want prompt
	}{
		{"background window, dialogs on: dialog", func(*promptState) {}, promptDialog},
		{"focused window: the card and toast are enough", func(s *promptState) { s.Focused = true }, promptNone},
		{"already answered: nothing", func(s *promptState) { s.Pending = false }, promptNone},
		{"answered and focused: nothing", func(s *promptState) { s.Pending, s.Focused = false, true }, promptNone},
		{"dialogs off: notification", func(s *promptState) { s.Dialogs = false }, promptNotification},
		{"no dialog here: notification", func(s *promptState) { s.HasDialog = false }, promptNotification},
		{"dialogs off, no notifier: nothing", func(s *promptState) { s.Dialogs, s.HasNotify = false, false }, promptNone},
		{"focused, dialogs off: nothing", func(s *promptState) { s.Dialogs, s.Focused = false, true }, promptNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := all
			c.edit(&s)
			if got := choosePrompt(s); got != c.want {
				t.Fatalf("choosePrompt(%+v) = %d, want %d", s, got, c.want)
			}
		})
	}
}
