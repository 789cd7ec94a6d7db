package main

import "testing"

func TestGreet(t *testing.T) {
	if got, want := Greet("Ada"), "Hello, Ada!"; got != want {
		t.Fatalf("Greet(Ada) = %q, want %q", got, want)
	}
}
