package suggest

import "testing"

func TestClosest(t *testing.T) {
	faults := []string{"attr-escape", "reverse-enums", "reset-enum-by-name", "skip-third-clear", "sorted-resets"}
	rels := []string{"add-enumeration", "augment-enumeration", "add-timer"}
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		{"reverse-enum", faults, "reverse-enums"},        // a prefix
		{"skip-thrid-clear", faults, "skip-third-clear"}, // two letters swapped
		{"augment-enum", rels, "augment-enumeration"},
		{"add-timers", rels, "add-timer"},
		{"frobnicate", rels, ""},
		{"", rels, ""},
		{"add-enumeration", rels, "add-enumeration"},
	} {
		if got := Closest(c.name, c.known); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got, want := DidYouMean("augment-enum", rels), `, did you mean "augment-enumeration"?`; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
	if got := DidYouMean("zzz", rels); got != "" {
		t.Errorf("DidYouMean(zzz) = %q, want nothing", got)
	}
	if d := distance("café", "cafe"); d != 1 {
		t.Errorf("distance counts runes: got %d", d)
	}
}
