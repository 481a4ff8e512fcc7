package examples_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

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

// fbsLayout is how the layouts rewrite FlatBuffers schemas: the bodies of
// enums, unions, structs and tables; an attribute on every field and
// enumerator.
var fbsLayout = layoutLang{
	parse: parseFBS,
	lists: syntax.ListSpec{Lists: []string{"enum", "union", "struct", "table"}},
	annotate: func(src []byte, d *syntax.Decl) []syntax.Edit {
		end := d.Node.End
		if strings.HasSuffix(d.Node.Text(src), ";") {
			end-- // a field: the attribute goes before its ;
		}
		has := false
		syntax.Walk(d.Node, func(n *syntax.Node) bool {
			has = has || n.Kind == "metadata" || n.Kind == "attrs"
			return !has
		})
		if has || d.Node.Kind == "table" {
			return nil // attributed already, or a table named in a union
		}
		return []syntax.Edit{{Start: end, End: end, Text: " (zqattr)"}}
	},
}

// TestFlatBuffersLayouts rewrites every seed of the FlatBuffers pack in
// five layouts; each must give every relation of the pack (exact and
// derived) the same spots, in number and description, as the seed.
func TestFlatBuffersLayouts(t *testing.T) {
	dir := "flatbuffers"
	files, _ := filepath.Glob(filepath.Join(dir, "relations", "add-*.yaml"))
	derived, _ := filepath.Glob(filepath.Join(dir, "derived", "*.yaml"))
	rels := loadRelationSets(t, files, derived)
	seeds, _ := filepath.Glob(filepath.Join(dir, "*.fbs"))
	if len(seeds) < 7 || len(rels) < 12 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	fbsLayout.check(t, rels, seeds)
}
