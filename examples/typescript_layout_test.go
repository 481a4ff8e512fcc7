package examples_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// tsLists are the lists the layouts rewrite.
var tsLists = syntax.ListSpec{Lists: []string{"enum_body", "interface_body", "class_body"}}

func parseTS(t *testing.T, name string, src []byte) *syntax.Tree {
	t.Helper()
	tr, err := typescript.Parser.Parse(name, src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return tr
}

// tsLayout is how the layouts rewrite TypeScript: the enum, interface and
// class bodies, a class body with a method left on its lines, a decorator
// on every class property.
var tsLayout = layoutLang{
	parse: parseTS,
	lists: tsLists,
	keep: func(l *syntax.List) bool {
		return l.Node.Kind == "class_body" && slices.ContainsFunc(l.Members, func(d *syntax.Decl) bool { return d.Node.Kind != "public_field_definition" })
	},
	annotate: func(_ []byte, d *syntax.Decl) []syntax.Edit {
		if d.Node.Kind == "public_field_definition" {
			return []syntax.Edit{{Start: d.Start, End: d.Start, Text: "@zqdecorator "}}
		}
		return nil
	},
	noTrailing: func(d *syntax.Decl) bool { return d.Node.Kind == "method_definition" },
}

// TestTypeScriptLayouts rewrites every seed of the TypeScript pack in five
// layouts; each must give every relation of the pack (exact and derived)
// the same spots, in number and description, as the seed.
func TestTypeScriptLayouts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(tsDir, "relations", "add-*.yaml"))
	derived, _ := filepath.Glob(filepath.Join(tsDir, "derived", "*.yaml"))
	rels := loadRelationSets(t, files, derived)
	seeds, _ := filepath.Glob(filepath.Join(tsDir, "*.ts"))
	if len(seeds) < 6 || len(rels) < 8 {
		t.Fatalf("%d seeds, %d relations: the pack is not where it was", len(seeds), len(rels))
	}
	tsLayout.check(t, rels, seeds)
	pairs, blind := tsBlindPairs(t, rels, seeds)
	t.Logf("relation-seed pairs where the seed has the relation's list: %d, of which blind (no spot): %d", pairs, len(blind))
	for _, b := range blind {
		t.Logf("  blind: %s", b)
	}
}

// tsRelationLists is the list node type each relation of the pack inserts in.
var tsRelationLists = map[string]string{
	"add-enum-member": "enum_body", "add-enum-member-explicit": "enum_body",
	"add-interface-member": "interface_body", "add-optional-interface-member": "interface_body", "add-optional-member": "interface_body",
	"add-class-property": "class_body", "add-constant": "program",
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
			ss, err := r.Spots(relation.Input{Name: filepath.Base(seed), Src: src})
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
