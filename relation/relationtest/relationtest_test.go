package relationtest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// recorder is a testing.TB that keeps what a test reports; Fatalf ends
// the goroutine, as testing's does.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// report runs f with a recorder and returns what it reported.
func report(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return strings.Join(r.msgs, "\n")
}

// copyLines is a transpiler whose output out.txt is its input; with
// drop set, it leaves out the lines holding drop.
func copyLines(drop string) transpiler.Transpiler {
	return transpiler.Func(func(_ context.Context, req transpiler.Request) (*transpiler.Result, error) {
		var b strings.Builder
		for _, l := range strings.SplitAfter(string(req.Src), "\n") {
			if drop == "" || !strings.Contains(l, drop) {
				b.WriteString(l)
			}
		}
		return &transpiler.Result{Status: transpiler.Accepted, Files: tree.Tree{"out.txt": []byte(b.String()), "same.txt": []byte("x\n")}}, nil
	})
}

// addItem inserts "item N" after each line; the item must be in out.txt
// at the same place, and same.txt unchanged.
func addItem(extra ...relation.Checker) *relation.Relation {
	return &relation.Relation{
		Name: "add-item",
		Doc:  "An item inserted after a line appears after it in out.txt.",
		Spots: func(_ context.Context, in relation.Input) ([]relation.Spot, error) {
			var spots []relation.Spot
			for i := range strings.Count(string(in.Src), "\n") {
				spots = append(spots, relation.Spot{Index: i, Line: i + 1, Col: 1, Desc: fmt.Sprintf("after line %d", i+1)})
			}
			return spots, nil
		},
		Mutate: func(_ context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
			lines := strings.SplitAfter(string(in.Src), "\n")
			n := fmt.Sprintf("item%d", rng.IntN(1000))
			src := strings.Join(lines[:sp.Index+1], "") + n + "\n" + strings.Join(lines[sp.Index+1:], "")
			checks := []relation.Checker{
				&oracle.Equivalence{Except: []string{"out.txt"}},
				&oracle.Difference{Name: "item", File: "out.txt", Edits: []oracle.Edit{{
					Op: oracle.Insert, Lines: []string{n},
					Anchors: []oracle.Anchor{{Path: []oracle.Matcher{{Text: strings.TrimSuffix(lines[sp.Index], "\n")}}}},
				}}},
			}
			return &relation.FollowUp{Src: []byte(src), Bindings: map[string]string{"N": n}, Fresh: []string{"N"}, Checks: append(checks, extra...)}, nil
		},
	}
}

func archive(t *testing.T, text string) *relationtest.Case {
	t.Helper()
	p := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := relationtest.ParseCase(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// good is a test case that add-item meets.
func good(t *testing.T) string {
	rng := relationtest.Rand(1, relation.Spot{Index: 1})
	n := fmt.Sprintf("item%d", rng.IntN(1000))
	return "spots 2\nspot 1\nwant item\n-- in.txt --\na\nb\n-- follow-up --\na\nb\n" + n + "\n-- bindings --\nN = " + n +
		"\n-- broken/out.txt --\na\n" + n + "\nb\n"
}

func TestRunCase(t *testing.T) {
	c := archive(t, good(t))
	if msg := report(t, func(tb testing.TB) { relationtest.RunCase(tb, c, addItem(), copyLines("")) }); msg != "" {
		t.Errorf("a test case the relation meets: %s", msg)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"spots 2", "spots 3", "2 spots on in.txt, want 3"},
		{"spot 1", "spot 2", "no spot 2: in.txt has 2"},
		{"-- follow-up --\na\nb\n", "-- follow-up --\nb\na\n", "is not the expected one"},
		{"N = item", "N = meti", "binding N = "},
		{"want item", "want equivalence", "the broken output fails [item], want [equivalence]"},
	} {
		c := archive(t, strings.Replace(good(t), tc.from, tc.to, 1))
		msg := report(t, func(tb testing.TB) { relationtest.RunCase(tb, c, addItem(), copyLines("")) })
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s → %s: reported %q, want %q", tc.from, tc.to, msg, tc.want)
		}
	}
	// A transpiler that drops the new item: a false alarm of the checks.
	msg := report(t, func(tb testing.TB) { relationtest.RunCase(tb, c, addItem(), copyLines("item")) })
	if !strings.Contains(msg, "false alarm at spot 1") {
		t.Errorf("reported %q, want a false alarm", msg)
	}
}

func TestParseCaseErrors(t *testing.T) {
	for text, want := range map[string]string{
		"-- in.txt --\na\n":                            "no spot",
		"spot 0\n":                                     "no input file",
		"spot 0\nspot: 1\n-- in.txt --\n":              "case.txtar:2: unknown line",
		"spot x\n-- in.txt --\n":                       "case.txtar:1: strconv.Atoi",
		"spot 0\n-- in.txt --\n-- other.txt --\n":      "a second input other.txt",
		"spot 0\n-- in.txt --\n-- broken/out.txt --\n": "no want line",
		"spot 0\nwant item\n-- in.txt --\n":            "no broken/ file",
		"spot 0\n-- in.txt --\n-- bindings --\nN: 1\n": "bindings line 1: want name = value",
	} {
		p := filepath.Join(t.TempDir(), "case.txtar")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := relationtest.ParseCase(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// never is a checker that never fails.
type never struct{}

func (never) Check(o, o2 tree.Tree) []oracle.Failure { return nil }

// always is a checker that always fails.
type always struct{}

func (always) Check(o, o2 tree.Tree) []oracle.Failure {
	return []oracle.Failure{{Checker: "always", Message: "fails"}}
}

func TestCheckersCanFail(t *testing.T) {
	in := relation.Input{Name: "in.txt", Src: []byte("a\nb\nc\n")}
	if msg := report(t, func(tb testing.TB) { relationtest.CheckersCanFail(tb, addItem(), copyLines(""), in) }); msg != "" {
		t.Errorf("add-item: %s", msg)
	}
	msg := report(t, func(tb testing.TB) { relationtest.CheckersCanFail(tb, addItem(never{}), copyLines(""), in) })
	if !strings.Contains(msg, "checker 2 (relationtest_test.never) fails on no breaking of o′") {
		t.Errorf("a vacuous checker: reported %q", msg)
	}
	msg = report(t, func(tb testing.TB) { relationtest.CheckersCanFail(tb, addItem(always{}), copyLines(""), in) })
	if !strings.Contains(msg, "false alarm") {
		t.Errorf("a checker that always fails: reported %q", msg)
	}
	msg = report(t, func(tb testing.TB) {
		relationtest.CheckersCanFail(tb, addItem(), copyLines(""), relation.Input{Name: "empty.txt"})
	})
	if !strings.Contains(msg, "no spot on any of the 1 inputs") {
		t.Errorf("no spot: reported %q", msg)
	}
}
