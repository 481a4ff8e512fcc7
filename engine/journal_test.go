package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
)

// journalLines runs a campaign of 60 cases with an output directory and
// returns the options and the lines of its journal.
func journalLines(t *testing.T, opt engine.Options) (engine.Options, []string) {
	t.Helper()
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	opt.OutDir = filepath.Join(t.TempDir(), "out")
	run(t, s, opt)
	b, err := os.ReadFile(filepath.Join(opt.OutDir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return opt, strings.SplitAfter(string(b), "\n")
}

func resume(t *testing.T, opt engine.Options, lines []string) (*engine.Campaign, error) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(opt.OutDir, "journal.jsonl"), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	opt.Resume = true
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	_, err := c.Run(context.Background())
	return c, err
}

// edit returns lines with line n (1-based) changed by f, which gets the
// record decoded.
func edit(t *testing.T, lines []string, n int, f func(map[string]any)) []string {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[n-1]), &rec); err != nil {
		t.Fatal(err)
	}
	delete(rec, "sum")
	f(rec)
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]string(nil), lines...)
	out[n-1] = string(b) + "\n"
	return engine.Reseal(out)
}

// TestJournalValidation: every journaled case is checked on resume, and a
// bad one in the middle is an error naming its line; only a torn last line
// is dropped.
func TestJournalValidation(t *testing.T) {
	opt, lines := journalLines(t, engine.Options{Seed: 3, MaxCases: 60})
	if len(lines) < 20 {
		t.Fatalf("%d journal lines", len(lines))
	}
	swapped := append([]string(nil), lines...)
	swapped[5], swapped[6] = swapped[6], swapped[5]
	damaged := append(append(append([]string(nil), lines[:9]...), `{"case": 8, "seed"`+"\n"), lines[10:]...)
	// A record edited consistently (its finding dropped, its status pass),
	// a record moved, a record dropped: refused by the checksums.
	finding := 0
	for i, l := range lines[1:] {
		if strings.Contains(l, `"status":"finding"`) {
			finding = i + 2
			break
		}
	}
	if finding == 0 {
		t.Fatal("no case with a finding in the journal")
	}
	dropped := append([]string(nil), lines...)
	l := strings.Replace(lines[finding-1], `"status":"finding"`, `"status":"pass"`, 1)
	dropped[finding-1] = l[:strings.Index(l, `,"findings":`)] + l[strings.Index(l, `,"elapsed_ns"`):]
	if _, err := resume(t, opt, engine.Reseal(dropped)); err != nil {
		t.Fatalf("the edit, resealed, is no valid journal: %v", err)
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"damaged", damaged, "journal.jsonl:10: damaged record"},
		{"damaged, resealed", engine.Reseal(damaged), "journal.jsonl:10: damaged record"},
		{"finding dropped", dropped, "its checksum does not match"},
		{"moved", swapped, "journal.jsonl:6: damaged record: its checksum does not match"},
		{"removed", append(append([]string(nil), lines[:8]...), lines[9:]...), "journal.jsonl:9: damaged record: its checksum does not match"},
		{"no checksum", append(append(append([]string(nil), lines[:9]...), strings.Replace(lines[9], `,"sum":"`, `,"x":"`, 1)), lines[10:]...), "journal.jsonl:10: damaged record: no checksum"},
		{"out of order", engine.Reseal(swapped), "journal.jsonl:7: case 4 after case 5: not in plan order"},
		{"index out of range", edit(t, lines, 4, func(r map[string]any) { r["case"] = 60 }), "journal.jsonl:4: case 60: index out of range"},
		{"unknown relation", edit(t, lines, 8, func(r map[string]any) { r["relation"] = "add-nothing" }), `journal.jsonl:8: case 6: unknown relation "add-nothing"`},
		{"unknown seed", edit(t, lines, 8, func(r map[string]any) { r["seed"] = "x.cll" }), `journal.jsonl:8: case 6: unknown seed "x.cll"`},
		{"bad status", edit(t, lines, 8, func(r map[string]any) { r["status"] = "fine" }), `journal.jsonl:8: case 6: status "fine" with 0 findings`},
		{"unknown field", edit(t, lines, 8, func(r map[string]any) { r["extra"] = 1 }), `journal.jsonl:8: damaged record`},
		{"another relation", edit(t, lines, 8, func(r map[string]any) { r["relation"] = other(r["relation"], "add-timer", "add-attribute") }), "are not those of this campaign's plan up to case"},
		{"another spot", edit(t, lines, 8, func(r map[string]any) { r["spot"].(map[string]any)["index"] = 999 }), "are not those of this campaign's plan up to case"},
		{"a gap", engine.Reseal(append(append([]string(nil), lines[:8]...), lines[9:]...)), "are not those of this campaign's plan up to case"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := resume(t, opt, c.lines)
			if err == nil || !errors.Is(err, engine.ErrCannotResume) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("resume: %v, want an error with %q", err, c.want)
			}
		})
	}
	// A torn last line is what a kill leaves: it is dropped.
	torn := append(append([]string(nil), lines[:30]...), lines[30][:12])
	if _, err := resume(t, opt, torn); err != nil {
		t.Errorf("resume after a torn last line: %v", err)
	}
}

// TestJournalFingerprint: a resume under another fingerprint (here, the
// builtin transpiler's faults as the command line gave them, confirm_runs,
// or a seed whose content changed) is refused, naming what differs.
func TestJournalFingerprint(t *testing.T) {
	opt, lines := journalLines(t, engine.Options{Seed: 3, MaxCases: 60, Fingerprint: map[string]string{"--fault": "[reverse-enums]"}})
	opt.Fingerprint = map[string]string{"--fault": "[]"}
	_, err := resume(t, opt, lines)
	want := "the journal belongs to another campaign: --fault differs: journal has [reverse-enums], now []"
	if err == nil || !errors.Is(err, engine.ErrCannotResume) || !strings.Contains(err.Error(), want) {
		t.Errorf("resume with other faults: %v, want %q", err, want)
	}
	opt.Fingerprint = map[string]string{"--fault": "[reverse-enums]"}
	// Another confirm_runs decides findings otherwise; the default and the
	// same number written out are the same campaign.
	confirm := opt
	confirm.ConfirmRuns = 2
	_, err = resume(t, confirm, lines)
	want = fmt.Sprintf("confirm_runs differs: journal has %d, now 2", engine.DefaultConfirmRuns)
	if err == nil || !errors.Is(err, engine.ErrCannotResume) || !strings.Contains(err.Error(), want) {
		t.Errorf("resume with another confirm_runs: %v, want %q", err, want)
	}
	confirm.ConfirmRuns = engine.DefaultConfirmRuns
	if _, err := resume(t, confirm, lines); err != nil {
		t.Errorf("resume with the default confirm_runs written out: %v", err)
	}
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	s.Seeds[0].Src = append(s.Seeds[0].Src, '\n')
	opt.Resume = true
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "seed "+s.Seeds[0].Name+" differs: journal has sha256:") {
		t.Errorf("resume with a changed seed: %v", err)
	}
}

// TestResumeContinuesTheTimeBudget: the journal records the campaign time
// used, and a resume spends only what is left of a time budget: with the
// whole hour used, it runs no new test case and stops for time.
func TestResumeContinuesTheTimeBudget(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := engine.Options{Seed: 4, MaxTime: time.Hour, Workers: 2, OutDir: filepath.Join(t.TempDir(), "out")}
	opt.OnCase = func(cr *engine.CaseResult) {
		if cr.Index == 50 {
			cancel()
		}
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	first, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(opt.OutDir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	if len(lines) != first.TestCases+1 {
		t.Fatalf("%d journal lines for %d test cases", len(lines), first.TestCases)
	}
	var last struct {
		ElapsedNS int64 `json:"elapsed_ns"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.ElapsedNS <= 0 || last.ElapsedNS > first.Timing.WallNS {
		t.Errorf("last case journaled at %d ns of a campaign of %d ns", last.ElapsedNS, first.Timing.WallNS)
	}
	// As if the first session had used the whole hour.
	lines = edit(t, lines, len(lines), func(r map[string]any) { r["elapsed_ns"] = time.Hour.Nanoseconds() })
	if err := os.WriteFile(filepath.Join(opt.OutDir, "journal.jsonl"), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	opt.Resume = true
	opt.OnCase = func(cr *engine.CaseResult) {
		if cr.Index > first.TestCases+10 {
			cancel2() // a resume that started the hour afresh
		}
	}
	c = &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	second, err := c.Run(ctx2)
	if err != nil {
		t.Fatal(err)
	}
	if second.Stopped != "time" || second.TestCases != first.TestCases || second.Timing.WallNS < time.Hour.Nanoseconds() {
		t.Errorf("resumed: stopped by %s after %d test cases (%d before), campaign time %v; want stopped by time, no new case, at least 1h",
			second.Stopped, second.TestCases, first.TestCases, time.Duration(second.Timing.WallNS))
	}
}

// other returns a, unless v is a, then b.
func other(v any, a, b string) string {
	if v == a {
		return b
	}
	return a
}

// TestJournalVersions: a journal of version 4, whose findings are whole,
// is resumed as one of version 5, whose findings with a bundle are lean;
// an older one and a later one are refused, saying so.
func TestJournalVersions(t *testing.T) {
	opt, lines := journalLines(t, engine.Options{Seed: 3, MaxCases: 60})
	if !strings.HasPrefix(lines[0], `{"journal":5,`) {
		t.Fatalf("header %.40s", lines[0])
	}
	if !strings.Contains(strings.Join(lines, ""), `"evidence_sum":"sha256:`) {
		t.Fatal("no lean finding in the journal")
	}
	for v, want := range map[int]string{
		4: "",
		3: "a journal of an earlier mcpt (version 3",
		6: "a journal of another version of mcpt (6, this one writes 5)",
	} {
		hdr := strings.Replace(lines[0], `{"journal":5,`, fmt.Sprintf(`{"journal":%d,`, v), 1)
		_, err := resume(t, opt, engine.Reseal(append([]string{hdr}, lines[1:]...)))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("version %d: %v, want %q", v, err, want)
		}
	}
}
