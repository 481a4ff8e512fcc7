package result

import "testing"

func TestTally(t *testing.T) {
	fs := []Finding{
		{Case: 3, CaseSeed: 9, Kind: Oracle}, {Case: 3, CaseSeed: 9, Kind: Oracle},
		{Case: 5, CaseSeed: 2, Kind: Oracle}, {Case: 5, CaseSeed: 2, Kind: Oracle},
		{Case: 8, CaseSeed: 1, Kind: Crash},
	}
	got := TallyOf(fs)
	if want := (Tally{Cases: 3, Checkers: 4, Crashes: 1}); got != want {
		t.Fatalf("TallyOf = %+v, want %+v", got, want)
	}
	if s, want := got.String(), "3 test cases with findings (4 failed checkers, 1 crash)"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if s, want := TallyOf(fs[:2]).String(), "1 test case with findings (2 failed checkers)"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if s := TallyOf(nil).String(); s != "no findings" {
		t.Errorf("String of none = %q", s)
	}
}
