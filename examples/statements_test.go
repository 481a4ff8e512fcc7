package examples_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// statementRelations are the CLL relations on statements (docs/cll.md), in
// the order mcpt lists them.
var statementRelations = []string{
	"assignments-fresh-entities", "comparisons-fresh-entities", "comparisons-uninitialised-entities", "copy-variable",
	"deep-ifs-fresh-entities", "deep-ifs-uninitialised-entities", "elif-fresh-parameters", "if-elif-else-fresh-entities",
	"if-elif-else-uninitialised-entities", "nested-ifs-fresh-entities", "send-fresh-command", "sequence-fresh-entities",
	"set-fresh-variable", "start-stop-fresh-timer", "test-fresh-event",
}

// loadStatements loads cll/statements.yaml, the relations on statements,
// with the given options.
func loadStatements(t *testing.T, opt setup.Options) *setup.Setup {
	t.Helper()
	opt.Tools = &setup.Tools{Builtins: cllc.Builtins(), Parsers: tsParsers}
	s, err := setup.Load(filepath.Join("cll", "statements.yaml"), opt)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range s.Relations {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, statementRelations) {
		t.Fatalf("relations %v, want %v", names, statementRelations)
	}
	return s
}

// TestStatementsNoFalseAlarm: the relations on statements, on the generated
// seeds with the correct cllc, report nothing. (docs/experiment.md
// and docs/cll.md measure 5,000 test cases; this is the part CI can
// afford.)
func TestStatementsNoFalseAlarm(t *testing.T) {
	testtier.Long(t, "1,200 test cases")
	s := loadStatements(t, setup.Options{})
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: 1200, BaseRuns: 1,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != 1200 {
		t.Fatalf("%d test cases", rep.TestCases)
	}
	if len(rep.Findings) > 0 {
		t.Errorf("%d false alarms:\n%s", len(rep.Findings), describe(rep, 5))
	}
}
