package result

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestRelationStatsCounts: checked test cases and, per checker, the
// decided, failed and undecided ones, with the reasons; shards merge by
// adding.
func TestRelationStatsCounts(t *testing.T) {
	var a RelationStats
	a.Add(nil) // not compared: not checked
	a.Add([]CheckOutcome{{Checker: "order", Undecided: true, Why: "no neighbour at line 12"}, {Checker: "locality"}})
	a.Add([]CheckOutcome{{Checker: "order", Failed: true}, {Checker: "locality"}})
	want := CheckerStats{Decided: 1, Failed: 1, Undecided: 1, Why: map[string]int{"no neighbour at line #": 1}}
	if a.Checked != 2 || !reflect.DeepEqual(a.Checkers["order"], want) || !reflect.DeepEqual(a.Checkers["locality"], CheckerStats{Decided: 2}) {
		t.Fatalf("after two checked cases: %+v", a)
	}
	if a.Undecided() != 1 {
		t.Errorf("Undecided() = %d, want 1", a.Undecided())
	}
	b := RelationStats{TestCases: 3, Checked: 1, Checkers: map[string]CheckerStats{"order": {Undecided: 1, Why: map[string]int{"no neighbour at line #": 1}}}}
	a.Merge(b)
	if a.TestCases != 3 || a.Checked != 3 || a.Checkers["order"].Undecided != 2 || a.Checkers["order"].Why["no neighbour at line #"] != 2 {
		t.Errorf("merged: %+v", a)
	}
}

// TestReason: reasons on one line, digits folded, bounded, each its own
// Reason.
func TestReason(t *testing.T) {
	for in, want := range map[string]string{
		"o: shop.pb.go:131:40:\n  cannot use": "o: shop.pb.go:#:#: cannot use",
		"":                                    "(no reason given)",
		strings.Repeat("é", 200):              strings.Repeat("é", 78) + "…",
	} {
		got := Reason(in)
		if got != want {
			t.Errorf("Reason(%q) = %q, want %q", in, got, want)
		}
		if Reason(got) != got {
			t.Errorf("Reason(%q) = %q, not its own", got, Reason(got))
		}
		if len(got) > maxReason {
			t.Errorf("Reason(%q) is %d bytes", in, len(got))
		}
	}
}

// TestReasonsBounded: a checker keeps MaxReasons reasons, the first in
// byte order, and counts the others together, whatever the order the
// test cases come in and however they are split into shards.
func TestReasonsBounded(t *testing.T) {
	var outs []CheckOutcome
	for i := range 30 {
		for range i%3 + 1 {
			outs = append(outs, CheckOutcome{Checker: "go-probe", Undecided: true, Why: fmt.Sprintf("reason %c", 'a'+i)})
		}
	}
	var first map[string]int
	for round := range 20 {
		r := rand.New(rand.NewPCG(uint64(round), 1))
		shuffled := append([]CheckOutcome(nil), outs...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// Two shards, merged.
		var a, b RelationStats
		cut := r.IntN(len(shuffled))
		for _, o := range shuffled[:cut] {
			a.Add([]CheckOutcome{o})
		}
		for _, o := range shuffled[cut:] {
			b.Add([]CheckOutcome{o})
		}
		a.Merge(b)
		got := a.Checkers["go-probe"].Why
		if round == 0 {
			first = got
			total := 0
			for _, n := range got {
				total += n
			}
			if len(got) != MaxReasons+1 || total != len(outs) || got["reason a"] != 1 || got["reason h"] != 2 {
				t.Fatalf("reasons %v (%d counted of %d)", got, total, len(outs))
			}
			continue
		}
		if !maps.Equal(got, first) {
			t.Fatalf("round %d: %v, round 0: %v", round, got, first)
		}
	}
}
