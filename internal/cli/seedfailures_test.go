package cli

import (
	"errors"
	"slices"
	"testing"
)

// A seed that several relations refuse with one message is named once,
// with those relations; other messages and seeds keep lines of their own.
func TestSeedFailures(t *testing.T) {
	var f seedFailures
	big := errors.New("big.cll: 6797903 bytes, over the 4 MiB limit")
	f.add("add-timer", "big.cll", big)
	f.add("add-timer", "bad.cll", errors.New("bad.cll:3:1: expected a name"))
	f.add("add-input-event", "big.cll", big)
	f.add("add-input-event", "big.cll", big) // (its Holds fails too)
	got := f.lines(3)
	want := []string{
		"relations add-timer, add-input-event on big.cll: big.cll: 6797903 bytes, over the 4 MiB limit",
		"relation add-timer on bad.cll: bad.cll:3:1: expected a name",
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines(3) = %q, want %q", got, want)
	}
	if got := f.lines(2); got[0] != "every relation (2) on big.cll: big.cll: 6797903 bytes, over the 4 MiB limit" {
		t.Errorf("lines(2)[0] = %q", got[0])
	}
}
