// Package cll_test tests the relations of the CLL example, the exact ones
// of relations/ and the derived ones of derived/, with package
// relationtest against the correct cllc.
package cll_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

func load(t *testing.T, pattern string) ([]*relation.Relation, transpiler.Transpiler) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := yamlrel.LoadFiles(files...)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rels, tr
}

// TestRelations runs each exact relation on its test cases,
// testdata/NAME/*.txtar, and checks that each of its checkers can fail at
// every spot of the eight programs and of testdata/siblings.cll.
func TestRelations(t *testing.T) {
	rels, tr := load(t, "relations/*.yaml")
	if len(rels) != 11 {
		t.Fatalf("%d relations, want the eleven of the catalogue", len(rels))
	}
	inputs := relationtest.ReadInputs(t, "*.cll", "testdata/*.cll")
	for _, r := range rels {
		t.Run(r.Name, func(t *testing.T) {
			relationtest.Run(t, filepath.Join("testdata", r.Name), r, tr)
			relationtest.CheckersCanFail(t, r, tr, inputs...)
		})
	}
}

// TestStatementRelations checks that each checker of the relations on
// statements can fail, at every spot of three of the programs (of some
// 130 each; the eight take a minute on a loaded machine).
func TestStatementRelations(t *testing.T) {
	testtier.Long(t, "the fifteen relations on statements on every input")
	rels, tr := load(t, "relations/statements/*.yaml")
	if len(rels) != 15 {
		t.Fatalf("%d relations, want the fifteen on statements", len(rels))
	}
	inputs := relationtest.ReadInputs(t, "traffic.cll", "boiler.cll", "car_wash.cll")
	for _, r := range rels {
		t.Run(r.Name, func(t *testing.T) {
			relationtest.CheckersCanFail(t, r, tr, inputs...)
		})
	}
}

// TestDerivedRelations checks that each checker of the derived relations
// can fail, at the spots of the eight programs and of
// testdata/siblings.cll, which declares what it never uses: the siblings
// the analogy checks take their predictions from.
func TestDerivedRelations(t *testing.T) {
	testtier.Long(t, "the derived catalogue on every input")
	rels, tr := load(t, "derived/*.yaml")
	inputs := relationtest.ReadInputs(t, "*.cll", "testdata/*.cll")
	for _, r := range rels {
		t.Run(r.Name, func(t *testing.T) {
			relationtest.CheckersCanFail(t, r, tr, inputs...)
		})
	}
}
