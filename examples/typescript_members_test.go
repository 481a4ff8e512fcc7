package examples_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/semrel"
)

// membersFlags is the combination of releases.yaml under which every
// relation of TestTypeScriptMemberFaults predicts the JavaScript: native
// class fields (target ESNext, useDefineForClassFields) and CommonJS,
// which export = needs.
var membersFlags = []string{"target=esnext", "module=commonjs", "classFields=define", "strict=on"}

// membersCampaign runs the configuration cfg (releases.yaml: under
// membersFlags) on tsc 5.9 (the pack's), with the worker argv (nil: the
// configuration's) and the relations only, cases test cases.
func membersCampaign(t *testing.T, cfg string, argv []string, only []string, cases int) map[string]int {
	t.Helper()
	var flags []string
	if cfg == "releases.yaml" {
		flags = membersFlags
	}
	s, err := setup.Load(filepath.Join(tsDir, cfg), setup.Options{
		Tools: &setup.Tools{Parsers: tsParsers, CheckerKinds: semrel.Kinds},
		Flags: flags,
		Edit: func(cfg *config.Config) error {
			if argv != nil {
				cfg.Transpiler.Argv = argv
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	closeAtEnd(t, s)
	rels := slices.DeleteFunc(slices.Clone(s.Relations), func(r *relation.Relation) bool { return !slices.Contains(only, r.Name) })
	if len(rels) != len(only) {
		t.Fatalf("releases.yaml has %d of the relations %v", len(rels), only)
	}
	opt := s.EngineOptions()
	// the compilers are deterministic: one re-run confirms a finding
	opt.Seed, opt.Workers, opt.MaxCases, opt.MaxSpots, opt.MaxTime, opt.OutDir, opt.ConfirmRuns = 1, 2, cases, 50, 0, "", 1
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: rels, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Release != "" && rep.Release != tsRelease {
		t.Fatalf("tsc %s, want the pack's %s", rep.Release, tsRelease)
	}
	for _, r := range only {
		if rep.ByRelation[r].Checked == 0 {
			t.Errorf("%s: no test case checked under %v", r, flags)
		}
	}
	return checkers(rep)
}

// TestTypeScriptMemberFaults (tools tier): add-private-member,
// add-abstract-member, add-export-assignment and add-imported-member give no finding on tsc
// 5.9, and each fault of faulty-members.js is caught by the check of its
// relation that it breaks, and by nothing else.
func TestTypeScriptMemberFaults(t *testing.T) {
	needTsc(t)
	all := []string{"add-private-member", "add-abstract-member", "add-export-assignment", "add-imported-member"}
	for _, r := range all {
		t.Run("releases.yaml/correct/"+r, func(t *testing.T) {
			if n := membersCampaign(t, "releases.yaml", nil, []string{r}, 24); len(n) > 0 {
				t.Errorf("findings on the correct tsc: %v", n)
			}
		})
	}
	// the derived checks see no abstract field (its line names the
	// member, between its neighbours), the semantic one sees an own
	// property of the instance
	faults := []struct{ cfg, fault, relation, checker string }{
		{"releases.yaml", "abstract-fields", "add-abstract-member", "equivalence"},
		{"releases.yaml", "private-first", "add-private-member", "js-class"},
		{"releases.yaml", "drop-private-declaration", "add-private-member", "dts-class"},
		{"releases.yaml", "hoist-export-assignment", "add-export-assignment", "js-assignment"},
		{"releases.yaml", "keep-type-imports", "add-imported-member", "equivalence"},
		{"derived.semantic.yaml", "abstract-fields", "abstract-member-semantic", "js-shape"},
	}
	for _, f := range faults {
		t.Run(f.cfg+"/"+f.fault, func(t *testing.T) {
			n := membersCampaign(t, f.cfg, []string{"node", "faulty-members.js", "--fault=" + f.fault}, []string{f.relation}, 16)
			want := f.relation + " oracle " + f.checker
			if n[want] == 0 {
				t.Errorf("%s: not caught by %s (findings: %v)", f.fault, want, n)
			}
			for k := range n {
				if k != want {
					t.Errorf("%s: a finding of %s too", f.fault, k)
				}
			}
		})
	}
}
