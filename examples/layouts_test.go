package examples_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/syntax"
)

// layout is one rewriting of a seed for a layout test.
type layout struct {
	name string
	fn   func(*testing.T, string, []byte) []byte
}

// listLayouts are the five layouts of a language whose lists spec names:
// the lists on one line, their braces on the next line, tabs, commented
// (the language's comments and annotations), CRLF.
func listLayouts(parse func(*testing.T, string, []byte) *syntax.Tree, spec syntax.ListSpec, commented func(*testing.T, string, []byte) []byte) []layout {
	return []layout{
		{"one-line lists", func(t *testing.T, name string, src []byte) []byte {
			return listsOnOneLine(src, syntax.Lists(parse(t, name, src), spec))
		}},
		{"brace on the next line", func(t *testing.T, name string, src []byte) []byte {
			return bracesOnNextLine(src, syntax.Lists(parse(t, name, src), spec))
		}},
		{"tabs", tabs},
		{"comments and annotations", commented},
		{"CRLF", crlf},
	}
}

// loadRelationSets loads each set of relation files on its own.
func loadRelationSets(t testing.TB, sets ...[]string) []*relation.Relation {
	t.Helper()
	var rels []*relation.Relation
	for _, set := range sets {
		// the kinds written in Go that the packs use, as cmd/mcpt has them
		rs, err := yamlrel.LoadFilesWith(yamlrel.Options{CheckerKinds: slices.Concat(protorel.Kinds, semrel.Kinds), Parsers: &tsParsers}, set...)
		if err != nil {
			t.Fatal(err)
		}
		rels = append(rels, rs...)
	}
	return rels
}

// spotDescs returns the descriptions of the spots of r on the input (for
// tsc's pinned release, which only the TypeScript relations read).
func spotDescs(t *testing.T, r *relation.Relation, name string, src []byte) []string {
	t.Helper()
	ss, err := r.Spots(context.Background(), relation.Input{Name: name, Src: src, Release: tsRelease})
	if err != nil {
		t.Fatalf("%s on %s: %v", r.Name, name, err)
	}
	var out []string
	for _, s := range ss {
		out = append(out, s.Desc)
	}
	return out
}

// checkLayouts rewrites every seed in each layout: the rewritten seed must
// parse and give every relation the same spots, in number and
// description, as the seed.
func checkLayouts(t *testing.T, parse func(*testing.T, string, []byte) *syntax.Tree, rels []*relation.Relation, seeds []string, layouts []layout) {
	t.Helper()
	spotsOf := func(r *relation.Relation, name string, src []byte) []string { return spotDescs(t, r, name, src) }
	total := 0
	for _, seed := range seeds {
		src := readFile(t, seed)
		name := filepath.Base(seed)
		for _, lay := range layouts {
			alt := lay.fn(t, name, src)
			parse(t, name+" ("+lay.name+")", alt)
			if string(alt) == string(src) {
				t.Errorf("%s: the %s layout changed nothing", name, lay.name)
			}
			for _, r := range rels {
				want, got := spotsOf(r, name, src), spotsOf(r, name, alt)
				total += len(want)
				if !slices.Equal(want, got) {
					t.Errorf("%s, %s: %s has %d spots, want %d as in the seed:\n  %s\nwant\n  %s", name, lay.name, r.Name, len(got), len(want),
						strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
		}
	}
	t.Logf("%d seeds x %d layouts x %d relations: %d spots compared", len(seeds), len(layouts), len(rels), total)
}
