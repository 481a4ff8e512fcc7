package experiment

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/faultinject"
)

// synthetic is two session pairs whose numbers are easy to check by hand.
func synthetic() []Session {
	ss := []Session{
		{Session: 1, Mode: MCP, Seed: 11, TestCases: 90, TranspilerRuns: 100,
			Executed: []int{0, 1, 2, 3, 4, 5, 6}, Crashed: []int{6}, Rejected: []int{5},
			Confirmed: []Detection{
				{Fault: 0, Relation: "add-timer", Checker: "equal"},
				{Fault: 1, Relation: "add-timer", Checker: "equal"},
				{Fault: 2, Relation: "augment-enumeration", Checker: "diff"},
			},
			UnconfirmedFaults: []int{3},
			Activated:         map[string][]int{"add-timer": {0, 1, 3}, "augment-enumeration": {2, 4, 5, 6}},
		},
		{Session: 1, Mode: Fuzz, Seed: 11, TestCases: 95, TranspilerRuns: 104,
			Executed: []int{0, 1, 2, 3, 4, 5, 6, 7}, Crashed: []int{6, 7}, Rejected: []int{5},
			Activated: map[string][]int{"add-timer": {0, 1, 3, 7}, "augment-enumeration": {2, 4, 5, 6}},
		},
		{Session: 2, Mode: MCP, Seed: 12, TestCases: 80, TranspilerRuns: 90,
			Executed: []int{0, 1, 4, 8, 9}, Crashed: []int{8},
			Confirmed: []Detection{
				{Fault: 1, Relation: "augment-enumeration", Checker: "diff"},
				{Fault: 9, Relation: "add-timer", Checker: "equal"},
			},
			Activated: map[string][]int{"add-timer": {0, 9}, "augment-enumeration": {1, 4, 8}},
		},
		{Session: 2, Mode: Fuzz, Seed: 12, TestCases: 84, TranspilerRuns: 92,
			Executed: []int{0, 1, 4, 8, 9}, Crashed: []int{},
		},
	}
	for i := range ss {
		ss[i].Tally()
	}
	return ss
}

// manifest5 is a manifest with five sites, faults 0 to 9.
func manifest5() *faultinject.Manifest {
	m := &faultinject.Manifest{Module: "example.com/t"}
	for i := range 5 {
		m.Sites = append(m.Sites, faultinject.Site{ID: i, Pos: "gen.go:" + string(rune('1'+i)) + ":2", File: "gen.go",
			Construct: faultinject.IfCond, Expr: "x > " + string(rune('0'+i)),
			Faults: [2]faultinject.Fault{{ID: 2 * i, Site: i, Force: true}, {ID: 2*i + 1, Site: i, Force: false}}})
	}
	return m
}

func TestTally(t *testing.T) {
	s := synthetic()[0]
	if s.InjectedFaults != 7 || s.Crashes != 1 || s.Rejections != 1 || s.OracleFailures != 3 || s.Unconfirmed != 1 {
		t.Errorf("tally of session 1 mcp: %+v", s)
	}
	s.Confirmed = append(s.Confirmed, Detection{Fault: 0, Relation: "add-attribute"})
	s.Tally()
	if s.OracleFailures != 3 {
		t.Errorf("a fault confirmed twice counts once: %d", s.OracleFailures)
	}
}

func TestStat(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want Stat
	}{
		{nil, Stat{}},
		{[]int{5}, Stat{Median: 5, Min: 5, Max: 5}},
		{[]int{9, 1, 4}, Stat{Median: 4, Min: 1, Max: 9}},
		{[]int{6, 43, 39, 40}, Stat{Median: 39.5, Min: 6, Max: 43}},
	} {
		if got := stat(tc.in); got != tc.want {
			t.Errorf("stat(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if s := (Stat{Median: 39.5, Min: 6, Max: 43}).String(); s != "39.5 (6–43)" {
		t.Errorf("String: %q", s)
	}
}

func TestAnalyze(t *testing.T) {
	a := Analyze(synthetic(), []string{"add-timer", "augment-enumeration", "add-attribute"}, manifest5())

	want := []ModeSummary{
		{Mode: MCP, Sessions: 2, TranspilerRuns: Stat{95, 90, 100}, InjectedFaults: Stat{6, 5, 7},
			Crashes: Stat{1, 1, 1}, OracleFailures: Stat{2.5, 2, 3}},
		{Mode: Fuzz, Sessions: 2, TranspilerRuns: Stat{98, 92, 104}, InjectedFaults: Stat{6.5, 5, 8},
			Crashes: Stat{1, 0, 2}, OracleFailures: Stat{0, 0, 0}},
	}
	if !reflect.DeepEqual(a.Summary, want) {
		t.Errorf("summary:\n got %+v\nwant %+v", a.Summary, want)
	}
	if len(a.Runs) != 2 || a.Runs[0].Ratio != 1.04 || a.Runs[1].MCP != 90 || a.Runs[1].Fuzz != 92 {
		t.Errorf("run ratios: %+v", a.Runs)
	}

	// MCP detected 0, 1, 2, 9 by oracles and 6, 8 by crashes; fuzz crashed
	// on 6 and 7.
	var only []int
	for _, n := range a.MCPOnly {
		only = append(only, n.Fault)
	}
	if !reflect.DeepEqual(only, []int{0, 1, 2, 8, 9}) {
		t.Errorf("MCP only: %v", only)
	}
	n1 := a.MCPOnly[1]
	if n1.How != "oracle add-timer/equal" || !reflect.DeepEqual(n1.Sessions, []int{1, 2}) ||
		n1.Pos != "gen.go:1:2" || n1.Force != false || n1.Construct != "if" {
		t.Errorf("fault 1: %+v", n1)
	}
	if a.MCPOnly[3].How != "crash" {
		t.Errorf("fault 8: %+v", a.MCPOnly[3])
	}
	if got := n1.String(); got != `fault 1: gen.go:1:2 if "x > 0" forced false` {
		t.Errorf("note: %q", got)
	}

	// Executed in MCP sessions: 0–6, 8, 9 (nine faults). Oracle: 0, 1, 2,
	// 9; crash: 6, 8; rejection: 5; undetected: 3 (unconfirmed) and 4
	// (executed twice, so listed first).
	sc := a.Score
	if sc.Executed != 9 || sc.Oracle != 4 || sc.Crash != 2 || sc.Rejection != 1 || sc.Undetected != 2 {
		t.Errorf("score counts: %+v", sc)
	}
	if sc.OracleShare != 4.0/9 || sc.DetectedShare != 7.0/9 {
		t.Errorf("shares: %v %v", sc.OracleShare, sc.DetectedShare)
	}
	if len(sc.UndetectedFaults) != 2 || sc.UndetectedFaults[0].Fault != 4 || sc.UndetectedFaults[1].Fault != 3 ||
		!reflect.DeepEqual(sc.UndetectedFaults[0].Sessions, []int{1, 2}) {
		t.Errorf("undetected: %+v", sc.UndetectedFaults)
	}
	wantRel := []RelationScore{
		// add-timer detected 0, 1, 9 of 0, 1, 3, 9; augment-enumeration
		// detected 1 and 2 of 1, 2, 4, 5, 6, 8; only 1 is shared.
		{Relation: "add-timer", Activated: 4, Detected: 3, Alone: []int{0, 9}},
		{Relation: "augment-enumeration", Activated: 6, Detected: 2, Alone: []int{2}},
		{Relation: "add-attribute", Activated: 0, Detected: 0, Alone: []int{}},
	}
	if !reflect.DeepEqual(sc.Relations, wantRel) {
		t.Errorf("relations:\n got %+v\nwant %+v", sc.Relations, wantRel)
	}
}

func TestWriteFiles(t *testing.T) {
	ss := synthetic()
	rels := []string{"add-timer", "augment-enumeration"}
	r := &Report{Tool: "mcpt experiment", Module: "example.com/t", Binary: "/x/bin/t", Sites: 5, Faults: 10,
		Sample: "s.cll", Excluded: []int{7}, Budget: "2m0s", Workers: 2, Seeds: 3, Relations: rels, Sessions: ss}
	r.Analysis = *Analyze(ss, rels, manifest5())
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(filepath.Join(dir, CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || !reflect.DeepEqual(rows[0], CSVHeader) {
		t.Fatalf("csv: %v", rows)
	}
	if want := []string{"1", "mcp", "11", "90", "100", "7", "1", "3", "1", "1", "0", "0.0"}; !reflect.DeepEqual(rows[1], want) {
		t.Errorf("csv row 1: %v, want %v", rows[1], want)
	}

	b, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Sessions []map[string]any `json:"sessions"`
		Summary  []map[string]any `json:"summary"`
		Score    map[string]any   `json:"score"`
		MCPOnly  []map[string]any `json:"mcp_only"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Sessions) != 4 || len(j.Summary) != 2 || j.Score["executed"] != 9.0 || len(j.MCPOnly) != 5 {
		t.Errorf("json: %d sessions, %d summaries, score %v, %d mcp-only", len(j.Sessions), len(j.Summary), j.Score, len(j.MCPOnly))
	}
	for _, k := range []string{"mode", "seed", "transpiler_runs", "injected_faults", "crashes", "oracle_failures"} {
		if _, ok := j.Sessions[0][k]; !ok {
			t.Errorf("json sessions lack %q", k)
		}
	}

	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Session | Mode | Seed | Transpiler runs | Injected faults | Crashes | Oracle failures |",
		"| 1 | MCP | 11 | 100 | 7 | 1 | 3 |",
		"| 1 | fuzz | 11 | 104 | 8 | 2 | – |",
		"| MCP | 2 | 95 (90–100) | 6 (5–7) | 1 | 2.5 (2–3) |",
		"(RQ2): session 1 +4.0%, session 2 +2.2%.\n",
		"## Faults detected by MCP alone (5)",
		`- fault 9: gen.go:5:2 if "x > 4" forced false — oracle add-timer/equal, session 2`,
		"| add-timer | 4 | 3 | 75% | 2: 0, 9 |",
		`- fault 4: gen.go:3:2 if "x > 2" forced true — executed in sessions 1, 2`,
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("experiment.md lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("experiment.md:\n%s", md)
	}
}

func TestTriage(t *testing.T) {
	sc := Analyze(synthetic(), nil, manifest5()).Score
	// Undetected: 4 (executed twice), then 3. Fault 3 changes an outcome,
	// fault 4 none.
	sc.Triage(map[int]bool{3: true, 4: false})
	if !sc.Triaged || sc.Inert != 1 {
		t.Errorf("triaged %v, inert %d", sc.Triaged, sc.Inert)
	}
	var order []int
	for _, n := range sc.UndetectedFaults {
		order = append(order, n.Fault)
	}
	if !reflect.DeepEqual(order, []int{3, 4}) || !*sc.UndetectedFaults[0].Visible || *sc.UndetectedFaults[1].Visible {
		t.Errorf("after triage: %v", sc.UndetectedFaults)
	}
	// A fault the triage did not run counts as visible.
	sc.Triage(map[int]bool{})
	if sc.Inert != 0 || !*sc.UndetectedFaults[1].Visible {
		t.Errorf("untriaged faults: inert %d", sc.Inert)
	}
}

func TestCountsText(t *testing.T) {
	got := countsText(map[string]int{"crashed": 33, "accepted": 481, "timed out": 2, "rejected": 33})
	if want := "481 accepted, 33 crashed, 33 rejected, 2 timed out"; got != want {
		t.Errorf("countsText = %q, want %q", got, want)
	}
}
