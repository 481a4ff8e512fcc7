package examples_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/syntax"
)

// The layout test of a pack: every seed rewritten in five layouts (one-line
// lists, the brace on the next line, tabs, comments and annotations between
// members, CRLF) gives every relation of the pack the same spots, in number
// and description, as the seed.

// layoutLang is what the layouts need to know of a language.
type layoutLang struct {
	parse func(t *testing.T, name string, src []byte) *syntax.Tree
	lists syntax.ListSpec
	// keep reports a list that stays on its lines in the one-line layout.
	keep func(l *syntax.List) bool
	// annotate returns the edits that annotate member d.
	annotate func(src []byte, d *syntax.Decl) []syntax.Edit
	// noTrailing reports a member that takes no comment after it.
	noTrailing func(d *syntax.Decl) bool
}

// applyEdits applies non-overlapping edits, from the last to the first.
func applyEdits(src []byte, es []syntax.Edit) []byte {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start > es[j].Start })
	for _, e := range es {
		src = e.Apply(src)
	}
	return src
}

var wsRun = regexp.MustCompile(`\s+`)

// oneLine writes every list on one line, comments left out.
func (lg layoutLang) oneLine(t *testing.T, name string, src []byte) []byte {
	tr := lg.parse(t, name, src)
	var es []syntax.Edit
	for _, l := range syntax.Lists(tr, lg.lists) {
		if lg.keep != nil && lg.keep(l) {
			continue
		}
		text := []byte(l.Node.Text(src))
		syntax.Walk(l.Node, func(n *syntax.Node) bool {
			if n.Kind == "comment" {
				for i := n.Start; i < n.End; i++ {
					text[i-l.Node.Start] = ' '
				}
			}
			return true
		})
		es = append(es, syntax.Edit{Start: l.Node.Start, End: l.Node.End, Text: wsRun.ReplaceAllString(string(text), " ")})
	}
	return applyEdits(src, es)
}

// braceOnNextLine puts the opening brace of every list on a line of its own.
func (lg layoutLang) braceOnNextLine(t *testing.T, name string, src []byte) []byte {
	tr := lg.parse(t, name, src)
	var es []syntax.Edit
	for _, l := range syntax.Lists(tr, lg.lists) {
		s := l.Open.Start
		for s > 0 && src[s-1] == ' ' {
			s--
		}
		es = append(es, syntax.Edit{Start: s, End: l.Open.Start, Text: "\n"})
	}
	return applyEdits(src, es)
}

// tabs indents with tabs instead of two spaces.
func tabs(_ *testing.T, _ string, src []byte) []byte {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		n := len(l) - len(strings.TrimLeft(l, " "))
		lines[i] = strings.Repeat("\t", n/2) + strings.Repeat(" ", n%2) + l[n:]
	}
	return []byte(strings.Join(lines, "\n"))
}

// commented puts a doc comment before every member of a list, a comment
// after it on its line (where its line ends there), a comment line between
// members, and the language's annotation on members that take one.
func (lg layoutLang) commented(t *testing.T, name string, src []byte) []byte {
	tr := lg.parse(t, name, src)
	var es []syntax.Edit
	for _, l := range syntax.Lists(tr, lg.lists) {
		for _, d := range l.Members {
			pre := "/** doc */\n" + l.Layout.Indent + "// note\n\n" + l.Layout.Indent + "/* loose */\n\n" + l.Layout.Indent + "/** doc */ "
			es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: pre})
			if lg.annotate != nil {
				es = append(es, lg.annotate(src, d)...)
			}
			rest, _, _ := strings.Cut(string(src[d.End:]), "\n")
			if d.Trailing == nil && (lg.noTrailing == nil || !lg.noTrailing(d)) && strings.TrimSpace(rest) == "" {
				es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
			}
		}
	}
	return applyEdits(src, es)
}

func crlf(_ *testing.T, _ string, src []byte) []byte {
	return []byte(strings.ReplaceAll(string(src), "\n", "\r\n"))
}

// loadRelationSets loads each set of relation files on its own.
func loadRelationSets(t *testing.T, sets ...[]string) []*relation.Relation {
	t.Helper()
	var rels []*relation.Relation
	for _, set := range sets {
		rs, err := yamlrel.LoadFiles(set...)
		if err != nil {
			t.Fatal(err)
		}
		rels = append(rels, rs...)
	}
	return rels
}

// check rewrites every seed in the five layouts and compares the spots of
// every relation with the seed's.
func (lg layoutLang) check(t *testing.T, rels []*relation.Relation, seeds []string) {
	layouts := []struct {
		name string
		fn   func(*testing.T, string, []byte) []byte
	}{{"one-line lists", lg.oneLine}, {"brace on the next line", lg.braceOnNextLine}, {"tabs", tabs}, {"comments and annotations", lg.commented}, {"CRLF", crlf}}
	spotsOf := func(r *relation.Relation, name string, src []byte) []string {
		ss, err := r.Spots(relation.Input{Name: name, Src: src})
		if err != nil {
			t.Fatalf("%s on %s: %v", r.Name, name, err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.Desc)
		}
		return out
	}
	total := 0
	for _, seed := range seeds {
		src := readFile(t, seed)
		name := filepath.Base(seed)
		for _, lay := range layouts {
			alt := lay.fn(t, name, src)
			lg.parse(t, name+" ("+lay.name+")", alt)
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
