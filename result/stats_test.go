package result

import "testing"

// TestRelationStatsCounts: checked test cases and, per checker, the
// decided, failed and undecided ones; shards merge by adding.
func TestRelationStatsCounts(t *testing.T) {
	var a RelationStats
	a.Add(nil) // not compared: not checked
	a.Add([]CheckOutcome{{Checker: "order", Undecided: true}, {Checker: "locality"}})
	a.Add([]CheckOutcome{{Checker: "order", Failed: true}, {Checker: "locality"}})
	if a.Checked != 2 || a.Checkers["order"] != (CheckerStats{Decided: 1, Failed: 1, Undecided: 1}) || a.Checkers["locality"] != (CheckerStats{Decided: 2}) {
		t.Fatalf("after two checked cases: %+v", a)
	}
	if a.Undecided() != 1 {
		t.Errorf("Undecided() = %d, want 1", a.Undecided())
	}
	b := RelationStats{TestCases: 3, Checked: 1, Checkers: map[string]CheckerStats{"order": {Undecided: 1}}}
	a.Merge(b)
	if a.TestCases != 3 || a.Checked != 3 || a.Checkers["order"].Undecided != 2 {
		t.Errorf("merged: %+v", a)
	}
}
