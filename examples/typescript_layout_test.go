package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// tsRelease is the release of tsc that package.json pins: the relations
// read it (.release), and their spots are listed for it where no compiler
// runs.
const tsRelease = "5.9.3"

// tsLists are the lists the layouts rewrite.
var tsLists = syntax.ListSpec{Lists: []string{"enum_body", "interface_body", "class_body"}}

// edits applies non-overlapping edits, from the last to the first.
func applyEdits(src []byte, es []syntax.Edit) []byte {
	sort.Slice(es, func(i, j int) bool { return es[i].Start > es[j].Start })
	for _, e := range es {
		src = e.Apply(src)
	}
	return src
}

func parseTS(t *testing.T, name string, src []byte) *syntax.Tree {
	t.Helper()
	tr, err := typescript.Parser.Parse(name, src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return tr
}

var wsRun = regexp.MustCompile(`\s+`)

// oneLine writes every enum and interface body, and every class body
// without a method, on one line, comments left out.
func oneLine(t *testing.T, name string, src []byte) []byte {
	tr := parseTS(t, name, src)
	return listsOnOneLine(src, slices.DeleteFunc(syntax.Lists(tr, tsLists), func(l *syntax.List) bool {
		return l.Node.Kind == "class_body" && slices.ContainsFunc(l.Members, func(d *syntax.Decl) bool { return d.Node.Kind != "public_field_definition" })
	}))
}

// listsOnOneLine writes each of the lists on one line, comments left out.
func listsOnOneLine(src []byte, lists []*syntax.List) []byte {
	var es []syntax.Edit
	for _, l := range lists {
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
func braceOnNextLine(t *testing.T, name string, src []byte) []byte {
	return bracesOnNextLine(src, syntax.Lists(parseTS(t, name, src), tsLists))
}

// bracesOnNextLine puts the opening brace of each of the lists on a line
// of its own.
func bracesOnNextLine(src []byte, lists []*syntax.List) []byte {
	var es []syntax.Edit
	for _, l := range lists {
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
// after it on its line, a comment line between members, and a decorator
// on every class property.
func commented(t *testing.T, name string, src []byte) []byte {
	return commentedWith(t, name, src, true)
}

// commentedBare is commented without the decorators.
func commentedBare(t *testing.T, name string, src []byte) []byte {
	return commentedWith(t, name, src, false)
}

func commentedWith(t *testing.T, name string, src []byte, decorate bool) []byte {
	tr := parseTS(t, name, src)
	var es []syntax.Edit
	for _, l := range syntax.Lists(tr, tsLists) {
		for _, d := range l.Members {
			pre := "/** doc */\n" + l.Layout.Indent + "// note\n\n" + l.Layout.Indent + "/* loose */\n\n" + l.Layout.Indent + "/** doc */ "
			if decorate && d.Node.Kind == "public_field_definition" {
				pre += "@zqdecorator "
			}
			es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: pre})
			if d.Trailing == nil && d.Node.Kind != "method_definition" {
				es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
			}
		}
	}
	return applyEdits(src, es)
}

func crlf(_ *testing.T, _ string, src []byte) []byte {
	return []byte(strings.ReplaceAll(string(src), "\n", "\r\n"))
}

// TestTypeScriptLayouts rewrites every seed of the TypeScript pack in five
// layouts; each must give every relation of the pack (exact and derived)
// the same spots, in number and description, as the seed.
func TestTypeScriptLayouts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(tsDir, "relations", "add-*.yaml"))
	derived, _ := filepath.Glob(filepath.Join(tsDir, "derived", "*.yaml"))
	rels := loadRelationSets(t, files, derived)
	seeds, _ := filepath.Glob(filepath.Join(tsDir, "*.ts"))
	more, _ := filepath.Glob(filepath.Join(tsDir, "more", "*.ts"))
	seeds = append(seeds, more...)
	if len(seeds) < 7 || len(rels) < 8 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	// add-static-reader reads the static field before its spot, and a
	// decorated field is no plain one: the decorators' code initialises it
	var plain, decorated []*relation.Relation
	for _, r := range rels {
		if decoratedAway[r.Name] {
			decorated = append(decorated, r)
		} else {
			plain = append(plain, r)
		}
	}
	if len(decorated) != len(decoratedAway) {
		t.Fatalf("%d of the relations that decorated fields leave without spots, want %d", len(decorated), len(decoratedAway))
	}
	checkLayouts(t, parseTS, plain, seeds, []layout{{"one-line lists", oneLine}, {"brace on the next line", braceOnNextLine}, {"tabs", tabs}, {"comments and decorators", commented}, {"CRLF", crlf}})
	checkLayouts(t, parseTS, decorated, seeds, []layout{{"one-line lists", oneLine}, {"brace on the next line", braceOnNextLine}, {"tabs", tabs}, {"comments", commentedBare}, {"CRLF", crlf}})
	pairs, blind := tsBlindPairs(t, rels, seeds)
	t.Logf("relation-seed pairs where the seed has the relation's list: %d, of which blind (no spot): %d", pairs, len(blind))
	for _, b := range blind {
		t.Logf("  blind: %s", b)
	}
}

// decoratedAway names the relations whose spots need an undecorated
// static field before them.
var decoratedAway = map[string]bool{"add-static-reader": true}

// tsRelationLists is the list node type each relation of the pack inserts
// in (a constructor's parameters: its class's body, the nearest type of
// its own, so a class without a constructor is a blind pair).
var tsRelationLists = map[string]string{
	"add-enum-member": "enum_body", "add-enum-member-explicit": "enum_body",
	"add-interface-member": "interface_body", "add-optional-interface-member": "interface_body", "add-optional-member": "interface_body",
	"add-class-property": "class_body", "add-constant": "program", "add-parameter-property": "class_body",
	"add-enum-member-special": "enum_body", "add-export": "program", "add-reexport": "program", "add-static-block": "class_body",
	"add-class-method": "class_body", "add-type-member": "object_type", "add-static-reader": "class_body",
	"add-private-member": "class_body", "add-abstract-member": "class_body", "add-export-assignment": "program",
	"add-imported-member": "interface_body",
}

// tsBlindPairs counts the relation-seed pairs where the seed has a list
// the relation inserts in, and names those where the relation has no spot.
func tsBlindPairs(t *testing.T, rels []*relation.Relation, seeds []string) (int, []string) {
	pairs := 0
	var blind []string
	for _, seed := range seeds {
		src := readFile(t, seed)
		tr := parseTS(t, seed, src)
		for _, r := range rels {
			kind, ok := tsRelationLists[r.Name]
			if !ok {
				t.Errorf("relation %s: which list does it insert in? (tsRelationLists)", r.Name)
				continue
			}
			if len(syntax.Lists(tr, syntax.ListSpec{Lists: []string{kind}})) == 0 {
				continue
			}
			pairs++
			ss, err := r.Spots(context.Background(), relation.Input{Name: filepath.Base(seed), Src: src, Release: tsRelease})
			if err != nil {
				t.Fatal(err)
			}
			if len(ss) == 0 {
				blind = append(blind, r.Name+" on "+filepath.Base(seed))
			}
		}
	}
	return pairs, blind
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
