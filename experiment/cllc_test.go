package experiment

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// The experiment on cllc, run once for the tests of this file: two session
// pairs of 150 test cases each. Only the code generator (./cll/cgen) is
// instrumented, so that the preparatory step takes seconds rather than
// minutes; its faults are the ones that produce wrong C without failing.
var (
	cllcOnce sync.Once
	cllcRep  *Report
	cllcCfg  Config
	cllcOut  string
	cllcErr  error
)

func cllcExperiment(t *testing.T) (*Report, Config) {
	t.Helper()
	testtier.Long(t, "the experiment on cllc takes minutes")
	cllcOnce.Do(func() {
		cllcOut, cllcErr = os.MkdirTemp("", "mcpt-experiment-test-")
		if cllcErr != nil {
			return
		}
		cllcCfg, cllcErr = loadCLLC(filepath.Join(cllcOut, "out"))
		if cllcErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cllcRep, cllcErr = Run(ctx, cllcCfg)
	})
	if cllcErr != nil {
		t.Fatal(cllcErr)
	}
	return cllcRep, cllcCfg
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cllcOut != "" {
		os.RemoveAll(cllcOut)
	}
	os.Exit(code)
}

// loadCLLC configures the experiment as mcpt experiment does for
// examples/cll/mcpt-exec.yaml: through setup.Load, without the transpiler
// (an instrumented build takes its place).
func loadCLLC(out string) (Config, error) {
	s, err := setup.Load(filepath.Join("..", "examples", "cll", "mcpt-exec.yaml"), setup.Options{Skip: setup.SkipTranspiler, NoRelease: true})
	if err != nil {
		return Config{}, err
	}
	cfg := s.Config
	tc := cfg.Transpiler
	return Config{
		Command:   transpiler.Command{Process: spec.Process{Argv: tc.Argv, Accept: tc.Accept, Reject: tc.Reject, Timeout: 5 * time.Second}},
		Relations: s.Relations, Seeds: s.Seeds, Normalize: s.Normalize, Style: s.Style(), BaseRuns: cfg.BaseRuns, ConfigFile: cfg.File,
		Module: "..", Packages: []string{"./cll/cgen"}, Main: "./cmd/cllc",
		Sample:   filepath.Join("..", "examples", "cll", "traffic.cll"),
		Sessions: 2, Seed: 0, MaxCases: 150, Workers: 2, Triage: true, Out: out,
	}, nil
}

func TestCLLCExperiment(t *testing.T) {
	rep, cfg := cllcExperiment(t)
	for _, s := range rep.Sessions {
		t.Logf("session %d %-4s: %d runs, %d faults, %d crashes, %d oracle failures (%d unconfirmed, %d unattributed, %d rejections)",
			s.Session, s.Mode, s.TranspilerRuns, s.InjectedFaults, s.Crashes, s.OracleFailures, s.Unconfirmed, s.Unattributed, s.Rejections)
	}
	if len(rep.Sessions) != 4 {
		t.Fatalf("%d sessions, want 4", len(rep.Sessions))
	}
	for i, s := range rep.Sessions {
		wantMode := []string{MCP, Fuzz}[i%2]
		if s.Session != i/2+1 || s.Mode != wantMode || s.Seed != uint64(i/2+1) {
			t.Errorf("row %d is session %d %s seed %d", i, s.Session, s.Mode, s.Seed)
		}
		if s.TestCases != 150 || s.InjectedFaults == 0 || s.InjectedFaults > s.TranspilerRuns {
			t.Errorf("session %d %s: %d test cases, %d runs, %d faults", s.Session, s.Mode, s.TestCases, s.TranspilerRuns, s.InjectedFaults)
		}
		switch s.Mode {
		case MCP:
			if s.OracleFailures == 0 {
				t.Errorf("session %d: MCP confirmed no oracle failure", s.Session)
			}
		case Fuzz:
			if s.OracleFailures != 0 || len(s.Confirmed) != 0 {
				t.Errorf("session %d: fuzz has oracle failures", s.Session)
			}
			sr, err := result.Load(filepath.Join(s.Dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range sr.Findings {
				if f.Kind == result.Oracle {
					t.Errorf("session %d: fuzz reported an oracle finding %s", s.Session, f.ID)
				}
			}
		}
		// Every confirmed or crashing fault was executed in the session,
		// and is a fault of the code generator.
		for _, d := range s.Confirmed {
			if !slices.Contains(s.Executed, d.Fault) {
				t.Errorf("session %d %s: confirmed fault %d was not executed", s.Session, s.Mode, d.Fault)
			}
			if !slices.Contains(rep.Relations, d.Relation) {
				t.Errorf("session %d: confirmed by unknown relation %q", s.Session, d.Relation)
			}
		}
		for _, f := range s.Crashed {
			if !slices.Contains(s.Executed, f) {
				t.Errorf("session %d %s: crashing fault %d was not executed", s.Session, s.Mode, f)
			}
		}
	}
	for _, f := range rep.Excluded {
		for _, s := range rep.Sessions {
			if slices.Contains(s.Executed, f) {
				t.Errorf("excluded fault %d executed in session %d %s", f, s.Session, s.Mode)
			}
		}
	}

	// The files.
	for _, name := range []string{MarkdownFile, CSVFile, JSONFile, "preparation.json", "instrumented/" + faultinject.ManifestFile} {
		if _, err := os.Stat(filepath.Join(cfg.Out, name)); err != nil {
			t.Error(err)
		}
	}
	f, err := os.Open(filepath.Join(cfg.Out, CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || !reflect.DeepEqual(rows[0], CSVHeader) || rows[2][1] != Fuzz || rows[2][7] != "0" {
		t.Errorf("experiment.csv: %v", rows)
	}
	b, err := os.ReadFile(filepath.Join(cfg.Out, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Sessions []map[string]any `json:"sessions"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	for _, s := range j.Sessions {
		for _, k := range []string{"mode", "seed", "transpiler_runs", "injected_faults", "crashes", "oracle_failures"} {
			if _, ok := s[k]; !ok {
				t.Errorf("experiment.json: a session lacks %q", k)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(cfg.Out, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Session | Mode | Seed | Transpiler runs | Injected faults | Crashes | Oracle failures |",
		"## Summary", "## Faults detected by MCP alone", "## Relation-set score", "cll/cgen/cgen.go:"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("experiment.md lacks %q", want)
		}
	}
	if len(rep.MCPOnly) == 0 || rep.Score.Oracle == 0 {
		t.Errorf("MCP alone detected %d faults; the relations %d", len(rep.MCPOnly), rep.Score.Oracle)
	}

	// The triage: forcing the guard of the reverse-enums demo fault to
	// false is cllc's correct behaviour, reached by every run: executed,
	// undetected and inert.
	sc := rep.Score
	t.Logf("score: %d executed, %d oracle, %d crash, %d rejection, %d undetected of which %d inert",
		sc.Executed, sc.Oracle, sc.Crash, sc.Rejection, sc.Undetected, sc.Inert)
	if !sc.Triaged || sc.Inert > sc.Undetected {
		t.Errorf("triage: %v, %d inert of %d", sc.Triaged, sc.Inert, sc.Undetected)
	}
	found := false
	for _, n := range sc.UndetectedFaults {
		if n.Expr == "g.faults[FaultReverseEnums]" && !n.Force {
			found = true
			if n.Visible == nil || *n.Visible {
				t.Errorf("%s: the triage finds it changes an outcome", n)
			}
		}
	}
	if !found {
		t.Error("the reverse-enums guard forced false is not among the undetected faults")
	}
}

// TestConfirm runs the confirmation step on hand-made findings: the fault
// that reverses enumerations (forcing cllc's demo fault on) is confirmed
// by augment-enumeration, the opposite direction of the same branch (the
// correct behaviour) is not, and a finding whose follow-up activated no
// fault is unattributed.
func TestConfirm(t *testing.T) {
	rep, cfg := cllcExperiment(t)
	m, err := faultinject.ReadManifest(rep.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	site := -1
	for _, s := range m.Sites {
		if s.Expr == "g.faults[FaultReverseEnums]" {
			site = s.ID
		}
	}
	if site < 0 {
		t.Fatal("no branch site for the reverse-enums demo fault")
	}
	reverse, correct := faultinject.FaultID(site, true), faultinject.FaultID(site, false)

	var rel *relation.Relation
	for _, r := range cfg.Relations {
		if r.Name == "augment-enumeration" {
			rel = r
		}
	}
	var seed engine.Seed
	for _, s := range cfg.Seeds {
		if path.Base(s.Name) == "traffic.cll" {
			seed = s
		}
	}
	if rel == nil || seed.Src == nil {
		t.Fatal("augment-enumeration or traffic.cll missing")
	}
	cmd := cfg.Command
	cmd.Argv = slices.Clone(cmd.Argv)
	cmd.Argv[0] = rep.Binary
	c := &confirmer{cmd: cmd, relations: map[string]*relation.Relation{rel.Name: rel},
		seeds: map[string]engine.Seed{seed.Name: seed}, workers: 2}

	// Three test cases on different spots; the recorder says which fault
	// each follow-up run activated.
	rec := newRecorder(nil)
	findings := []result.Finding{}
	for i, fault := range []int{reverse, correct, faultinject.NoFault} {
		f := result.Finding{ID: "f" + string(rune('0'+i)), Kind: result.Oracle, Relation: rel.Name, SeedFile: seed.Name,
			Spot: result.Spot{Index: i}, Case: i, CaseSeed: uint64(7 + i), Checker: "name-table"}
		rec.runs[f.Case] = []followUpRun{{relation: rel.Name, fault: fault, status: transpiler.Accepted}}
		findings = append(findings, f)
	}
	res, err := c.confirm(context.Background(), &result.Report{Findings: findings}, rec, t.TempDir(), func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	want := []Detection{{Fault: reverse, Relation: rel.Name, Checker: "name-table", Finding: "f0"}}
	if !reflect.DeepEqual(res.confirmed, want) || !reflect.DeepEqual(res.unconfirmed, []int{correct}) || res.unattributed != 1 {
		t.Errorf("confirmed %+v, unconfirmed %v, unattributed %d; want %+v, [%d], 1", res.confirmed, res.unconfirmed, res.unattributed, want, correct)
	}
}
