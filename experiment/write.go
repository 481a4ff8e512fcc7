package experiment

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
)

// The files an experiment writes into its output directory.
const (
	MarkdownFile = "experiment.md"
	CSVFile      = "experiment.csv"
	JSONFile     = "experiment.json"
)

// CSVHeader is the header row of experiment.csv.
var CSVHeader = []string{"session", "mode", "seed", "test_cases", "transpiler_runs", "injected_faults",
	"crashes", "oracle_failures", "rejections", "unconfirmed", "unattributed", "seconds"}

// UndetectedShown is how many undetected faults the Markdown lists.
const UndetectedShown = 20

// WriteFiles writes experiment.md, experiment.csv and experiment.json into
// dir.
func (r *Report) WriteFiles(dir string) error {
	if err := writeJSON(filepath.Join(dir, JSONFile), r); err != nil {
		return err
	}
	if err := result.WriteFileAtomic(filepath.Join(dir, CSVFile), r.CSV()); err != nil {
		return err
	}
	return result.WriteFileAtomic(filepath.Join(dir, MarkdownFile), []byte(r.Markdown()))
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return result.WriteFileAtomic(path, append(b, '\n'))
}

// CSV renders the sessions as comma-separated values, one row each.
func (r *Report) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(CSVHeader)
	for _, s := range r.Sessions {
		w.Write([]string{
			strconv.Itoa(s.Session), s.Mode, strconv.FormatUint(s.Seed, 10), strconv.Itoa(s.TestCases),
			strconv.Itoa(s.TranspilerRuns), strconv.Itoa(s.InjectedFaults), strconv.Itoa(s.Crashes),
			strconv.Itoa(s.OracleFailures), strconv.Itoa(s.Rejections), strconv.Itoa(s.Unconfirmed),
			strconv.Itoa(s.Unattributed), strconv.FormatFloat(s.Seconds, 'f', 1, 64),
		})
	}
	w.Flush()
	return b.Bytes()
}

func modeName(mode string) string {
	if mode == MCP {
		return "MCP"
	}
	return mode
}

// Markdown renders the report for people: Figure 4, the summary, the
// faults only MCP detected and the relation-set score.
func (r *Report) Markdown() string {
	var w markdown
	r.writeIntro(&w)
	r.writeFigure4(&w)
	r.writeSummary(&w)
	r.writeDetails(&w)
	r.writeMCPOnly(&w)
	r.Score.writeScore(&w)
	r.Score.writeUndetected(&w)
	return w.String()
}

// markdown accumulates the text of the report.
type markdown struct{ strings.Builder }

func (w *markdown) p(format string, args ...any) { fmt.Fprintf(&w.Builder, format, args...) }

// writeIntro writes the title and the paragraphs describing the transpiler
// and the campaigns.
func (r *Report) writeIntro(w *markdown) {
	w.p("# Fault-injection experiment\n\n")
	w.p("Transpiler: `%s` (module %s, %d instrumented package%s): %d branch sites, %d faults. ",
		r.Binary, r.Module, len(r.Packages), plural(len(r.Packages)), r.Sites, r.Faults)
	w.p("The preparatory step on `%s` dropped %d faults that crash or hang the transpiler; %d remain.\n\n",
		r.Sample, len(r.Excluded), r.Faults-len(r.Excluded))
	order := "MCP, then fuzz"
	if r.SideBySide {
		order = "MCP and fuzz side by side"
	}
	w.p("%d session%s (%s, with the same seed), each campaign bounded by %s, %d workers, %d seeds, %d relations. ",
		len(r.Sessions)/2, plural(len(r.Sessions)/2), order, r.budgetText(), r.Workers, r.Seeds, len(r.Relations))
	w.p("Preparation took %.0fs; the confirmation step, outside the budget, %.0fs", r.PreparationSeconds, r.ConfirmationSeconds)
	if r.TriageSeconds > 0 {
		w.p("; the triage of the undetected faults %.0fs", r.TriageSeconds)
	}
	w.p(".\n\n")
}

// budgetText says what bounds each campaign: a duration, a number of test
// cases or both.
func (r *Report) budgetText() string {
	budget := r.Budget
	if r.MaxCases > 0 {
		if budget != "" {
			budget += ", "
		}
		budget += fmt.Sprintf("%d test cases", r.MaxCases)
	}
	return budget
}

// writeFigure4 writes the table of the paper's Figure 4, one row per session.
func (r *Report) writeFigure4(w *markdown) {
	w.p("## Figure 4\n\n")
	w.p("| Session | Mode | Seed | Transpiler runs | Injected faults | Crashes | Oracle failures |\n")
	w.p("|---:|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Sessions {
		oracle := strconv.Itoa(s.OracleFailures)
		if s.Mode == Fuzz {
			oracle = "–"
		}
		w.p("| %d | %s | %d | %d | %d | %d | %s |\n", s.Session, modeName(s.Mode), s.Seed, s.TranspilerRuns, s.InjectedFaults, s.Crashes, oracle)
	}
	w.p("\nTranspiler runs count base and follow-up runs; injected faults are the distinct faults that some follow-up run activated; ")
	w.p("crashes and oracle failures are distinct faults, the latter confirmed by re-running the revealing pair with the fault forced. ")
	w.p("The fuzz sessions check no oracle (–).\n\n")
}

// writeSummary writes the median and range of each mode and the transpiler
// runs of fuzz relative to MCP.
func (r *Report) writeSummary(w *markdown) {
	w.p("## Summary\n\nMedian (range) over the sessions of each mode.\n\n")
	w.p("| Mode | Sessions | Transpiler runs | Injected faults | Crashes | Oracle failures |\n")
	w.p("|---|---:|---:|---:|---:|---:|\n")
	for _, m := range r.Summary {
		oracle := m.OracleFailures.String()
		if m.Mode == Fuzz {
			oracle = "–"
		}
		w.p("| %s | %d | %s | %s | %s | %s |\n", modeName(m.Mode), m.Sessions, m.TranspilerRuns, m.InjectedFaults, m.Crashes, oracle)
	}
	if len(r.Runs) > 0 {
		runs := make([]string, len(r.Runs))
		for i, x := range r.Runs {
			runs[i] = fmt.Sprintf("session %d %+.1f%%", x.Session, 100*(x.Ratio-1))
		}
		w.p("\nTranspiler runs of fuzz relative to MCP (RQ2): %s.\n", strings.Join(runs, ", "))
	}
}

// writeDetails writes the per-session counts that Figure 4 leaves out.
func (r *Report) writeDetails(w *markdown) {
	w.p("\n## Details\n\n")
	w.p("| Session | Mode | Test cases | Rejections | Unconfirmed | Findings without a fault | Seconds |\n")
	w.p("|---:|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Sessions {
		w.p("| %d | %s | %d | %d | %d | %d | %.0f |\n", s.Session, modeName(s.Mode), s.TestCases, s.Rejections, s.Unconfirmed, s.Unattributed, s.Seconds)
	}
	w.p("\nRejections: faults whose follow-up run was rejected although its base was accepted. ")
	w.p("Unconfirmed: faults an oracle finding pointed at that the confirmation step did not confirm. ")
	w.p("Findings without a fault: oracle findings whose follow-up run activated no fault (false alarms, or bugs of the transpiler itself).\n\n")
}

// writeMCPOnly lists the faults that MCP detected and fuzz did not.
func (r *Report) writeMCPOnly(w *markdown) {
	w.p("## Faults detected by MCP alone (%d)\n\n", len(r.MCPOnly))
	if len(r.MCPOnly) == 0 {
		w.p("None.\n")
	}
	for _, n := range r.MCPOnly {
		w.p("- %s — %s, session%s %s\n", n, n.How, plural(len(n.Sessions)), joinInts(n.Sessions))
	}
}

// writeScore writes the relation-set score and its table of relations.
func (sc *Score) writeScore(w *markdown) {
	w.p("\n## Relation-set score\n\n")
	w.p("Of the %d distinct faults executed in the MCP sessions, the relations' oracles detected %d (%s), ",
		sc.Executed, sc.Oracle, percent(sc.OracleShare))
	w.p("%d more crashed or hung the transpiler, %d more only made it reject a follow-up, and %d went undetected: ",
		sc.Crash, sc.Rejection, sc.Undetected)
	w.p("%s of the executed faults were detected.\n\n", percent(sc.DetectedShare))
	w.p("| Relation | Faults activated | Detected | Rate | Detected by it alone |\n")
	w.p("|---|---:|---:|---:|---|\n")
	for _, rs := range sc.Relations {
		rate := "–"
		if rs.Activated > 0 {
			rate = percent(float64(rs.Detected) / float64(rs.Activated))
		}
		alone := "–"
		if len(rs.Alone) > 0 {
			alone = fmt.Sprintf("%d: %s", len(rs.Alone), joinInts(rs.Alone))
		}
		w.p("| %s | %d | %d | %s | %s |\n", rs.Relation, rs.Activated, rs.Detected, rate, alone)
	}
	w.p("\nEach fault is activated by one follow-up run per session, so a relation is only tried on the faults its own follow-ups reached first; ")
	w.p("\"alone\" means no other relation detected the fault in these sessions, not that no other relation could.\n\n")
	if sc.Triaged {
		w.p("Forced on every seed, %d of the %d undetected faults change the transpiler's outcome (its status or its output) on some seed: ",
			sc.Undetected-sc.Inert, sc.Undetected)
		w.p("those are the faults the relations missed. The other %d change nothing on the seeds; ", sc.Inert)
		w.p("most are branches forced to the value they always take there, which no test on such inputs can reveal.\n\n")
	}
}

// writeUndetected lists the first UndetectedShown executed faults that
// nothing detected.
func (sc *Score) writeUndetected(w *markdown) {
	shown := min(len(sc.UndetectedFaults), UndetectedShown)
	listOrder := "most often executed first"
	if sc.Triaged {
		listOrder = "those that change an outcome first, then most often executed"
	}
	w.p("### Executed faults that nothing detected (%d; %d shown, %s)\n\n", len(sc.UndetectedFaults), shown, listOrder)
	if shown == 0 {
		w.p("None.\n")
	}
	for _, n := range sc.UndetectedFaults[:shown] {
		fn := ""
		if n.Func != "" {
			fn = " in " + n.Func
		}
		effect := ""
		if n.Visible != nil {
			effect = "changes nothing on the seeds; "
			if *n.Visible {
				effect = "changes an outcome; "
			}
		}
		w.p("- %s%s — %sexecuted in session%s %s\n", n, fn, effect, plural(len(n.Sessions)), joinInts(n.Sessions))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func percent(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }
