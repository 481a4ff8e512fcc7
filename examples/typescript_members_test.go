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
)

// membersFlags is the combination of releases.yaml under which every
// relation of TestTypeScriptMemberFaults predicts the JavaScript: native
// class fields (target ESNext, useDefineForClassFields) and CommonJS,
// which export = needs.
var membersFlags = []string{"target=esnext", "module=commonjs", "classFields=define", "strict=on"}

// membersCampaign runs releases.yaml on tsc 5.9 (the pack's) under
// membersFlags, with the worker argv (nil: tsc-worker.js) and the
// relations only, cases test cases.
func membersCampaign(t *testing.T, argv []string, only []string, cases int) map[string]int {
	t.Helper()
	s, err := setup.Load(filepath.Join(tsDir, "releases.yaml"), setup.Options{
		Tools: &setup.Tools{Parsers: tsParsers},
		Flags: membersFlags,
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
	opt.Seed, opt.Workers, opt.MaxCases, opt.MaxSpots, opt.MaxTime, opt.OutDir = 1, 2, cases, 50, 0, ""
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
			t.Errorf("%s: no test case checked under %v", r, membersFlags)
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
		t.Run("correct/"+r, func(t *testing.T) {
			if n := membersCampaign(t, nil, []string{r}, 30); len(n) > 0 {
				t.Errorf("findings on the correct tsc: %v", n)
			}
		})
	}
	faults := []struct{ fault, relation, checker string }{
		{"abstract-fields", "add-abstract-member", "equivalence"},
		{"private-first", "add-private-member", "js-class"},
		{"drop-private-declaration", "add-private-member", "dts-class"},
		{"hoist-export-assignment", "add-export-assignment", "js-assignment"},
		{"keep-type-imports", "add-imported-member", "equivalence"},
	}
	for _, f := range faults {
		t.Run(f.fault, func(t *testing.T) {
			n := membersCampaign(t, []string{"node", "faulty-members.js", "--fault=" + f.fault}, []string{f.relation}, 30)
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
