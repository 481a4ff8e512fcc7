package examples_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

// fbsLists are the lists of fbs.grammar's trees the layouts rewrite: the
// bodies of enums, unions, structs and tables (each list node holds its
// declaration; its brackets are the braces).
var fbsLists = syntax.ListSpec{Lists: []string{"enum", "union", "struct", "table"}}

var fbsParser = sync.OnceValues(func() (*grammar.Parser, error) {
	g, err := grammar.ParseFile(filepath.Join("flatbuffers", "fbs.grammar"))
	if err != nil {
		return nil, err
	}
	return grammar.NewParser(g), nil
})

func parseFBS(t *testing.T, name string, src []byte) *syntax.Tree {
	t.Helper()
	p, err := fbsParser()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Parse(name, src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return tr
}

// fbsCommented puts a doc comment before every member of a list, comment
// lines between members, a comment after a member that ends its line, and
// an attribute on every field and enumerator that has none.
func fbsCommented(t *testing.T, name string, src []byte) []byte {
	tr := parseFBS(t, name, src)
	var es []syntax.Edit
	for _, l := range syntax.Lists(tr, fbsLists) {
		for _, d := range l.Members {
			ind := l.Layout.Indent
			es = append(es, syntax.Edit{Start: d.Start, End: d.Start, Text: "/// doc\n" + ind + "// note\n\n" + ind + "/* loose */\n\n" + ind + "/** doc */ "})
			attributed := false
			syntax.Walk(d.Node, func(n *syntax.Node) bool {
				attributed = attributed || n.Kind == "metadata" || n.Kind == "attrs"
				return !attributed
			})
			if !attributed && d.Node.Kind != "table" { // not a table named in a union
				end := d.Node.End
				if strings.HasSuffix(d.Node.Text(src), ";") {
					end-- // a field: the attribute goes before its ;
				}
				es = append(es, syntax.Edit{Start: end, End: end, Text: " (zqattr)"})
			}
			if rest, _, _ := strings.Cut(string(src[d.End:]), "\n"); d.Trailing == nil && strings.TrimSpace(rest) == "" {
				es = append(es, syntax.Edit{Start: d.End, End: d.End, Text: " // after"})
			}
		}
	}
	return applyEdits(src, es)
}

// TestFlatBuffersLayouts rewrites every seed of the FlatBuffers pack in
// five layouts (enum, union, struct and table bodies on one line; their
// braces on the next line; tabs; comments and attributes between and on
// members; CRLF): each must give every relation of the pack, exact and
// derived, the same spots, in number and description, as the seed.
func TestFlatBuffersLayouts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("flatbuffers", "relations", "add-*.yaml"))
	derived, _ := filepath.Glob(filepath.Join("flatbuffers", "derived", "*.yaml"))
	rels := loadRelationSets(t, files, derived)
	seeds, _ := filepath.Glob(filepath.Join("flatbuffers", "*.fbs"))
	if len(seeds) < 7 || len(rels) < 12 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	checkLayouts(t, parseFBS, rels, seeds, listLayouts(parseFBS, fbsLists, fbsCommented))
}
