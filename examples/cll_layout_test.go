package examples_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

// cllDecls is the declarations section of cll.grammar's trees, cllLists the
// lists inside declarations: states, enumeration values, commands.
var (
	cllDecls = syntax.ListSpec{Lists: []string{"body"}, Members: []string{"forward", "states", "decl"}}
	cllLists = syntax.ListSpec{Lists: []string{"state_list", "enumeration", "commands"}, Sep: ","}
)

func cllParser(t *testing.T) func(*testing.T, string, []byte) *syntax.Tree {
	t.Helper()
	g, err := grammar.ParseFile("cll/cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	return func(t *testing.T, name string, src []byte) *syntax.Tree {
		t.Helper()
		tr, err := p.Parse(name, src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		return tr
	}
}

// TestCLLLayouts rewrites every shipped CLL seed in six layouts (all
// declarations on one line; the states, enumeration and command lists one
// element a line; the brace of an enumeration, the states and the commands
// on the next line; tabs; a
// comment line before every declaration, a comment after it and after
// every element of a list but the last; CRLF): each must give every
// relation on declarations, exact and derived, the same spots, in number
// and description, as the seed.
func TestCLLLayouts(t *testing.T) {
	parse := cllParser(t)
	exact, _ := filepath.Glob(filepath.Join("cll", "relations", "a*.yaml"))
	derived, _ := filepath.Glob(filepath.Join("cll", "derived", "a*.yaml"))
	rels := loadRelationSets(t, exact, derived)
	seeds, _ := filepath.Glob(filepath.Join("cll", "*.cll"))
	if len(seeds) < 8 || len(rels) < 22 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	section := func(t *testing.T, name string, src []byte) *syntax.List {
		ls := syntax.Lists(parse(t, name, src), cllDecls)
		if len(ls) != 1 || len(ls[0].Members) == 0 {
			t.Fatalf("%s: %d declarations sections", name, len(ls))
		}
		return ls[0]
	}
	oneLine := func(t *testing.T, name string, src []byte) []byte {
		l := section(t, name, src)
		start, end := l.Members[0].Start, l.Members[len(l.Members)-1].End
		text := []byte(string(src[start:end]))
		syntax.Walk(l.Node, func(n *syntax.Node) bool {
			if n.Kind == "comment" && n.Start >= start && n.End <= end {
				for i := n.Start; i < n.End; i++ {
					text[i-start] = ' '
				}
			}
			return true
		})
		return applyEdits(src, []syntax.Edit{{Start: start, End: end, Text: wsRun.ReplaceAllString(string(text), " ")}})
	}
	elementLines := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		for _, l := range syntax.Lists(parse(t, name, src), cllLists) {
			for i, d := range l.Members[1:] {
				es = append(es, syntax.Edit{Start: l.Members[i].End, End: d.Start, Text: "\n      "})
			}
		}
		return applyEdits(src, es)
	}
	// the brace of an enumeration on the next line, and the states and
	// commands on the line after their keyword
	braces := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		for _, l := range syntax.Lists(parse(t, name, src), cllLists) {
			at := l.Members[0].Start
			if l.Open != nil {
				at = l.Open.Start
			}
			s := at
			for s > 0 && src[s-1] == ' ' {
				s--
			}
			es = append(es, syntax.Edit{Start: s, End: at, Text: "\n    "})
		}
		return applyEdits(src, es)
	}
	commented := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		for _, d := range section(t, name, src).Members {
			ind := d.List.Layout.Indent
			es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: "// note\n" + ind + "\t// more\n\n" + ind})
			es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
		}
		for _, l := range syntax.Lists(parse(t, name, src), cllLists) {
			for _, d := range l.Members[:len(l.Members)-1] {
				es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // element\n     "})
			}
		}
		return applyEdits(src, es)
	}
	checkLayouts(t, parse, rels, seeds, []layout{
		{"declarations on one line", oneLine},
		{"one element a line", elementLines},
		{"brace on the next line", braces},
		{"tabs", tabs},
		{"comments", commented},
		{"CRLF", crlf},
	})
}

// cllBodies are the statement lists of cll.grammar's trees: the bodies of
// init and cycle and of every branch of a conditional.
var cllBodies = syntax.ListSpec{Lists: []string{"initially", "cyclically", "conditional", "elif"}, Members: []string{"stmt"}, Runs: true}

// TestCLLStatementLayouts rewrites every shipped CLL seed in five layouts
// of its statements (each body on one line; then, else and end on lines of
// their own; tabs; a comment line before every statement and a comment
// after it; CRLF): each must give every relation on statements the same
// spots, in number and description, as the seed.
func TestCLLStatementLayouts(t *testing.T) {
	parse := cllParser(t)
	files, _ := filepath.Glob(filepath.Join("cll", "relations", "statements", "*.yaml"))
	rels := loadRelationSets(t, files)
	seeds, _ := filepath.Glob(filepath.Join("cll", "*.cll"))
	if len(seeds) < 8 || len(rels) < 15 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	bodies := func(t *testing.T, name string, src []byte) []*syntax.List {
		ls := syntax.Lists(parse(t, name, src), cllBodies)
		if len(ls) < 2 {
			t.Fatalf("%s: %d statement lists", name, len(ls))
		}
		return ls
	}
	oneLine := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		for _, l := range bodies(t, name, src) {
			for i, d := range l.Members[1:] {
				es = append(es, syntax.Edit{Start: l.Members[i].End, End: d.Start, Text: " "})
			}
		}
		return applyEdits(src, es)
	}
	keywords := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		syntax.Walk(parse(t, name, src).Root, func(n *syntax.Node) bool {
			if !n.Named && (n.Kind == "then" || n.Kind == "else" || n.Kind == "end") {
				es = append(es, syntax.Edit{Start: n.Start, End: n.Start, Text: "\n    "})
			}
			return true
		})
		return applyEdits(src, es)
	}
	commented := func(t *testing.T, name string, src []byte) []byte {
		var es []syntax.Edit
		for _, l := range bodies(t, name, src) {
			for _, d := range l.Members {
				ind := l.Layout.Indent
				es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: "// note\n" + ind})
				if l.Layout.OnePerLine {
					es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
				}
			}
		}
		return applyEdits(src, es)
	}
	checkLayouts(t, parse, rels, seeds, []layout{
		{"each body on one line", oneLine},
		{"then, else and end on lines of their own", keywords},
		{"tabs", tabs},
		{"comments", commented},
		{"CRLF", crlf},
	})
}
