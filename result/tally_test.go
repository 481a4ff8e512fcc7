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
	// The crash of a seed's base run is no test case (the summary said "0
	// test cases … 1 test case with findings" when every base crashed).
	base := Finding{ID: "s0000-base", Case: -1, Kind: Crash, Role: RoleBase}
	if got, want := TallyOf([]Finding{base}), (Tally{Bases: 1, Crashes: 1}); got != want {
		t.Errorf("TallyOf a base crash = %+v, want %+v", got, want)
	}
	if s, want := TallyOf([]Finding{base}).String(), "1 seed whose base run failed (1 crash)"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if s, want := TallyOf(append(fs[:2:2], base, base)).String(), "1 test case with findings and 2 seeds whose base run failed (2 failed checkers, 2 crashes)"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
}
