package examples_test

// The semantic checkers (relation/semrel) on the real compilers: the
// demonstration relations of examples/typescript/semantic (js-shape and
// dts-probe on tsc 5.9, ES modules and CommonJS) and
// examples/protobuf/semantic (go-probe on protoc-gen-go) give no finding
// on the packs' seeds, and catch each fault of their faulty compilers,
// by the checker meant to catch it.

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
)

// semanticCampaign runs the configuration at path, with the transpiler
// edited by edit (nil: as configured), the relations of only (nil: all),
// for cases test cases of at most spots spots a relation and seed.
func semanticCampaign(t *testing.T, path string, edit func(*config.Transpiler), only []string, cases, spots int) *result.Report {
	t.Helper()
	s, err := setup.Load(path, setup.Options{
		Tools: &setup.Tools{CheckerKinds: slices.Concat(protorel.Kinds, semrel.Kinds), Parsers: tsParsers},
		Edit: func(cfg *config.Config) error {
			if edit != nil {
				edit(&cfg.Transpiler)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	closeAtEnd(t, s)
	rels := s.Relations
	if only != nil {
		rels = nil
		for _, r := range s.Relations {
			if slices.Contains(only, r.Name) {
				rels = append(rels, r)
			}
		}
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: rels, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: spots, BaseRuns: s.Config.BaseRuns, ConfirmRuns: 1, Normalize: s.Normalize,
		Release: s.Release, Flags: s.Flags,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bad := slices.Concat(rep.Seeds.Rejected, rep.Seeds.Crashed, rep.Seeds.Nondeterministic); len(bad) > 0 {
		t.Fatalf("seeds the compiler did not accept deterministically: %v", bad)
	}
	return rep
}

// checkers counts the findings of a report by relation and checker.
func checkers(rep *result.Report) map[string]int {
	n := map[string]int{}
	for _, f := range rep.Findings {
		n[f.Relation+" "+string(f.Kind)+" "+f.Checker]++
	}
	return n
}

// semanticCases is the size of the no-false-alarm campaigns of the
// semantic demonstrations: every relation meets several seeds; the 300
// test cases of each configuration are mcpt run's (docs/relations.md).
const semanticCases = 60

// semanticFault is a fault of a faulty compiler of the demonstrations,
// the relation that meets it and the checker that must catch it.
type semanticFault struct {
	config, fault, relation, checker string
	cases, spots                     int
}

// TestSemanticTypeScript (tools tier): js-shape and dts-probe give no
// finding on tsc 5.9 with ES modules and with CommonJS, and each fault of
// faulty-tsc.js is caught by its checker and by no other.
func TestSemanticTypeScript(t *testing.T) {
	needTsc(t)
	dir := filepath.Join(tsDir, "semantic")
	for _, cfg := range []string{"mcpt.yaml", "commonjs.yaml"} {
		t.Run(cfg, func(t *testing.T) {
			rep := semanticCampaign(t, filepath.Join(dir, cfg), nil, nil, semanticCases, 4)
			if len(rep.Findings) > 0 {
				t.Errorf("%d findings on the correct tsc:\n%s", len(rep.Findings), describe(rep, 5))
			}
			if rep.TestCases < semanticCases {
				t.Errorf("%d test cases, want %d", rep.TestCases, semanticCases)
			}
		})
	}
	faults := []semanticFault{
		{"mcpt.yaml", "declare-fields", "class-member-semantic", "js-shape", 60, 50},
		{"mcpt.yaml", "static-after-blocks", "class-member-semantic", "js-shape", 120, 50},
		{"commonjs.yaml", "enum-export-list", "export-semantic", "js-shape", 40, 50},
		{"mcpt.yaml", "drop-optional-methods", "interface-member-semantic", "dts-probe", 40, 50},
		{"mcpt.yaml", "lose-undefined", "interface-member-semantic", "dts-probe", 60, 50},
	}
	for _, f := range faults {
		t.Run(f.fault, func(t *testing.T) {
			rep := semanticCampaign(t, filepath.Join(dir, f.config), func(tc *config.Transpiler) {
				tc.Argv = []string{"node", "faulty-tsc.js", "--fault=" + f.fault}
			}, []string{f.relation}, f.cases, f.spots)
			checkFault(t, rep, f)
		})
	}
}

// checkFault checks that the fault was caught by its checker in its
// relation, and that nothing else failed.
func checkFault(t *testing.T, rep *result.Report, f semanticFault) {
	t.Helper()
	n := checkers(rep)
	want := f.relation + " " + string(result.Oracle) + " " + f.checker
	if n[want] == 0 {
		t.Errorf("%s: not caught by %s (findings: %v)", f.fault, want, n)
	}
	for k := range n {
		if k != want {
			t.Errorf("%s: findings of %s: %s", f.fault, k, describe(rep, 3))
		}
	}
}

// TestSemanticProtobuf (tools tier): go-probe gives no finding on
// protoc-gen-go v1.36.12, and catches both faults of faulty-gen-go.sh.
func TestSemanticProtobuf(t *testing.T) {
	needProtobuf(t)
	dir := filepath.Join("protobuf", "semantic")
	rep := semanticCampaign(t, filepath.Join(dir, "mcpt.yaml"), nil, nil, semanticCases, 4)
	if len(rep.Findings) > 0 {
		t.Errorf("%d findings on the correct protoc-gen-go:\n%s", len(rep.Findings), describe(rep, 5))
	}
	for _, f := range []semanticFault{
		{"mcpt.yaml", "deprecated-getters", "probe-field", "go-probe", 40, 4},
		{"mcpt.yaml", "default-base32", "probe-message", "go-probe", 40, 4},
	} {
		t.Run(f.fault, func(t *testing.T) {
			rep := semanticCampaign(t, filepath.Join(dir, f.config), func(tc *config.Transpiler) {
				tc.Argv = []string{"./faulty-gen-go.sh", f.fault, "{input}", "{outdir}"}
			}, []string{f.relation}, f.cases, f.spots)
			checkFault(t, rep, f)
		})
	}
}

// TestSemanticDerivedProtobuf (tools tier): protobuf/go/derived.semantic.yaml,
// the derived relations with go-probe's, gives no finding on protoc-gen-go
// v1.36.12 and finds the three faults of the pack's faulty generators, as
// go/mcpt.yaml does: the enum name map without its last entry by its
// derived relations (checker "": any of them), the two faults that write
// every sibling alike wrongly (which derived.yaml alone misses) by
// go-probe.
func TestSemanticDerivedProtobuf(t *testing.T) {
	needProtobuf(t)
	path := filepath.Join("protobuf", "go", "derived.semantic.yaml")
	rep := semanticCampaign(t, path, nil, nil, semanticCases, 4)
	if len(rep.Findings) > 0 {
		t.Errorf("%d findings on the correct protoc-gen-go:\n%s", len(rep.Findings), describe(rep, 5))
	}
	for _, f := range []struct {
		semanticFault
		argv []string
	}{
		{semanticFault{"derived.semantic.yaml", "enum-name-map", "add-enum-value", "", 40, 4}, []string{"../faulty/gen-go.sh", "{input}", "{outdir}"}},
		{semanticFault{"derived.semantic.yaml", "deprecated-getters", "probe-field", "go-probe", 40, 4}, []string{"../semantic/faulty-gen-go.sh", "deprecated-getters", "{input}", "{outdir}"}},
		{semanticFault{"derived.semantic.yaml", "default-base32", "probe-message", "go-probe", 40, 4}, []string{"../semantic/faulty-gen-go.sh", "default-base32", "{input}", "{outdir}"}},
	} {
		t.Run(f.fault, func(t *testing.T) {
			rep := semanticCampaign(t, path, func(tc *config.Transpiler) { tc.Argv = f.argv }, []string{f.relation}, f.cases, f.spots)
			if f.checker != "" {
				checkFault(t, rep, f.semanticFault)
				return
			}
			// Any of the relation's derived checkers (locality, analogy).
			if len(rep.Findings) == 0 {
				t.Errorf("%s: not caught by %s", f.fault, f.relation)
			}
			for _, fd := range rep.Findings {
				if fd.Relation != f.relation || fd.Kind != result.Oracle || fd.Checker == "go-probe" {
					t.Errorf("%s: a finding of %s %s %s", f.fault, fd.Relation, fd.Kind, fd.Checker)
				}
			}
		})
	}
}

// TestSemanticDerivedTypeScript (tools tier): typescript/derived.semantic.yaml,
// the derived relations with the semantic ones, gives no finding on tsc
// 5.9, and each fault of faulty-tsc.js that shows with ES modules (the
// derived relations alone find none of them) is caught by its checker.
func TestSemanticDerivedTypeScript(t *testing.T) {
	needTsc(t)
	path := filepath.Join(tsDir, "derived.semantic.yaml")
	rep := semanticCampaign(t, path, nil, nil, semanticCases, 4)
	if len(rep.Findings) > 0 {
		t.Errorf("%d findings on the correct tsc:\n%s", len(rep.Findings), describe(rep, 5))
	}
	for _, f := range []semanticFault{
		{"derived.semantic.yaml", "declare-fields", "class-member-semantic", "js-shape", 60, 50},
		{"derived.semantic.yaml", "static-after-blocks", "class-member-semantic", "js-shape", 120, 50},
		{"derived.semantic.yaml", "drop-optional-methods", "interface-member-semantic", "dts-probe", 40, 50},
		{"derived.semantic.yaml", "lose-undefined", "interface-member-semantic", "dts-probe", 60, 50},
	} {
		t.Run(f.fault, func(t *testing.T) {
			rep := semanticCampaign(t, path, func(tc *config.Transpiler) {
				tc.Argv = []string{"node", "semantic/faulty-tsc.js", "--fault=" + f.fault}
			}, []string{f.relation}, f.cases, f.spots)
			checkFault(t, rep, f)
		})
	}
}
