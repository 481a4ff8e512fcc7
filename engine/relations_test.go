package engine_test

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// TestEachCheckerCanFail takes every CLL relation at several spots of the
// examples, checks that the correct cllc passes, then breaks o′ by hand in
// the way each checker guards against and checks that exactly that checker
// fails: no checker is vacuous.
func TestEachCheckerCanFail(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	ctx := context.Background()
	transpile := func(name string, src []byte) tree.Tree {
		res, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: name, Src: src})
		if err != nil || res.Status != transpiler.Accepted {
			t.Fatalf("cllc on %s: %v %v %s", name, err, res.Status, res.Stderr)
		}
		return res.Files
	}
	for _, rel := range s.Relations {
		t.Run(rel.Name, func(t *testing.T) {
			tried := 0
			for _, seed := range s.Seeds {
				in := relation.Input{Name: path.Base(seed.Name), Src: seed.Src}
				spots, err := rel.Spots(in)
				if err != nil {
					t.Fatal(err)
				}
				if len(spots) == 0 {
					continue
				}
				o := transpile(in.Name, in.Src)
				for _, sp := range []relation.Spot{spots[0], spots[len(spots)/2], spots[len(spots)-1]} {
					tried++
					fu, err := rel.Mutate(in, sp, engine.CaseRand(uint64(sp.Index)+11))
					if err != nil {
						t.Fatal(err)
					}
					o2 := transpile(in.Name, fu.Src)
					if f := fu.Check(o, o2); len(f) > 0 {
						t.Fatalf("%s spot %d: false alarm %s: %s\n%s", seed.Name, sp.Index, f[0].Checker, f[0].Message, f[0].Diff)
					}
					for k, c := range fu.Checks {
						broken, name := breakFor(t, c, o, o2)
						var failed []string
						for _, f := range fu.Check(o, broken) {
							failed = append(failed, f.Checker)
						}
						if !slices.Equal(slices.Compact(failed), []string{name}) {
							t.Errorf("%s spot %d: breaking for checker %d (%s) made %v fail", seed.Name, sp.Index, k, name, failed)
						}
					}
				}
			}
			if tried == 0 {
				t.Fatal("the relation has no spot on any example")
			}
		})
	}
}

// breakFor returns a copy of o2 broken for checker c, and c's name.
func breakFor(t *testing.T, c relation.Checker, o, o2 tree.Tree) (tree.Tree, string) {
	t.Helper()
	b := maps.Clone(o2)
	switch c := c.(type) {
	case *oracle.Equivalence:
		for _, f := range o2.Names() {
			if !slices.Contains(c.Except, f) {
				b[f] = append(slices.Clone(o2[f]), "/* stray */\n"...)
				return b, "equivalence"
			}
		}
		t.Fatal("the equivalence check covers no file")
	case *oracle.Difference:
		// Drop the first line that the follow-up added.
		old, _ := oracle.SplitLines(string(o[c.File]))
		lines, nl := oracle.SplitLines(string(o2[c.File]))
		for i := range lines {
			if i >= len(old) || lines[i] != old[i] {
				if strings.TrimSpace(lines[i]) == "" && i+1 < len(lines) {
					i++
				}
				lines = slices.Delete(lines, i, i+1)
				b[c.File] = []byte(oracle.JoinLines(lines, nl))
				return b, c.Name
			}
		}
		t.Fatalf("%s: the follow-up changed nothing", c.File)
	default:
		t.Fatalf("unknown checker %T", c)
	}
	return nil, ""
}
