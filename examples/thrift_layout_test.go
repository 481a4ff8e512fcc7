package examples_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

// thriftLists are the member lists of thrift.grammar's trees the layouts
// rewrite; thriftDefs the document's definitions.
var (
	thriftLists = syntax.ListSpec{Lists: []string{"enum_body", "struct_body", "service_body"}}
	thriftDefs  = syntax.ListSpec{Lists: []string{"document"}, Members: []string{"definition"}}
)

func thriftParser(t *testing.T) func(*testing.T, string, []byte) *syntax.Tree {
	t.Helper()
	g, err := grammar.ParseFile("thrift/thrift.grammar")
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

// TestThriftLayouts rewrites every seed of the Thrift pack in five layouts
// (enum, struct and service bodies on one line; their braces on the next
// line; tabs; a doc comment (a block comment before a method), comment
// lines and a comment after every member and definition, and an
// annotation on every member; CRLF): each
// must give every relation of the pack, exact and derived, the same spots,
// in number and description, as the seed.
func TestThriftLayouts(t *testing.T) {
	parse := thriftParser(t)
	files, _ := filepath.Glob(filepath.Join("thrift", "relations", "add-*.yaml"))
	derived, _ := filepath.Glob(filepath.Join("thrift", "derived", "add-*.yaml"))
	rels := loadRelationSets(t, files, derived)
	seeds, _ := filepath.Glob(filepath.Join("thrift", "*.thrift"))
	if len(seeds) < 7 || len(rels) < 14 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	commented := func(t *testing.T, name string, src []byte) []byte {
		tr := parse(t, name, src)
		var es []syntax.Edit
		for _, l := range slices.Concat(syntax.Lists(tr, thriftLists), syntax.Lists(tr, thriftDefs)) {
			for _, d := range l.Members {
				ind := l.Layout.Indent
				doc := "/** doc */"
				if l.Node.Kind == "service_body" {
					// add-service-method leaves out the place before a
					// documented method (the generators copy its doc
					// before the method's declarations): there a doc
					// comment is content, not layout
					doc = "/* doc */"
				}
				es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: doc + "\n" + ind + "// note\n\n" + ind + "/* loose */\n\n" + ind + doc + " "})
				if l.Node.Kind != "document" {
					end := d.End
					if d.Sep != nil {
						end = d.Sep.Start
					}
					es = append(es, syntax.Edit{Start: end, End: end, Text: ` (zq.note = "x")`})
				}
				es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
			}
		}
		return applyEdits(src, es)
	}
	checkLayouts(t, parse, rels, seeds, listLayouts(parse, thriftLists, commented))
}
