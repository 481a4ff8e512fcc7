package report

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"plural": plural,
}).Parse(htmlSource))

// WriteHTML writes outDir/report.html for r: a summary of the campaign and,
// for each group of findings, its smallest example with the evidence read
// from the example's bundle. The file needs nothing else: no network, no
// script, no external style.
func WriteHTML(outDir string, r *result.Report) error {
	p, err := newPage(outDir, r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, p); err != nil {
		return err
	}
	return result.WriteFileAtomic(filepath.Join(outDir, ReportHTML), buf.Bytes())
}

// htmlPage is what the template shows.
type htmlPage struct {
	R          *result.Report
	Findings   int
	Tally      result.Tally // test cases with findings, and what the findings are
	FoundWhat  string       // what the findings card counts: "failed checkers", …
	Wall       string
	Phases     string
	Relations  []relationRow
	Kinds      []kindRow
	Skipped    int
	Groups     []groupView
	Unreported bool // findings with no group: an old or hand-made report
}

type relationRow struct {
	Name                                 string
	TestCases, Failing, Findings, Groups int
}

type kindRow struct {
	Kind             result.Kind
	Findings, Groups int
}

type groupView struct {
	N        int
	Anchor   string
	G        result.Group
	Example  exampleView
	Others   []otherView
	Missing  bool // the example is not among the findings
	Headline string
}

type otherView struct {
	ID, Seed, Spot string
	Href           string       // the finding's bundle directory, relative to the report
	Reduced        *reducedView // its reduced bundle, if mcpt reduce made one
}

// reducedView is the bundle mcpt reduce wrote beside a finding's own.
type reducedView struct {
	ID, Href, Repro string
	Lines, Before   int // lines of the reduced base input, and of the original's
}

type exampleView struct {
	F        result.Finding
	Href     string // the bundle directory, relative to the report
	Reduced  *reducedView
	Spot     string
	Repro    string
	Bindings []binding
	Output   *sideBySide
	OutNote  string // why there is no side-by-side view, or what is odd about it
	Input    []uline
	InNote   string
	Patch    []uline // the bundle's diff.txt
	Stderr   string
}

type binding struct{ Name, Value string }

func newPage(outDir string, r *result.Report) (*htmlPage, error) {
	p := &htmlPage{R: r, Findings: len(r.Findings), Tally: result.TallyOf(r.Findings), FoundWhat: "findings"}
	switch t := p.Tally; {
	case t.Findings() > 0 && t.Checkers == t.Findings():
		p.FoundWhat = "failed checkers"
	case t.Findings() > 0:
		p.FoundWhat = "findings: " + t.What()
	}
	if r.Timing.WallNS > 0 {
		p.Wall = fmtDuration(time.Duration(r.Timing.WallNS))
	}
	if t := r.Timing; t.MutationNS+t.TranspileNS+t.CheckNS > 0 {
		p.Phases = fmt.Sprintf("mutation %s · transpilation %s · checking %s",
			fmtDuration(time.Duration(t.MutationNS)), fmtDuration(time.Duration(t.TranspileNS)), fmtDuration(time.Duration(t.CheckNS)))
	}
	p.Skipped = len(r.Seeds.Rejected) + len(r.Seeds.Nondeterministic) + len(r.Seeds.Crashed)

	groups := r.Groups
	if len(groups) == 0 && len(r.Findings) > 0 {
		groups = result.GroupFindings(r.Findings)
		p.Unreported = true
	}
	byID := map[string]*result.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
	}

	rel := map[string]*relationRow{}
	relRow := func(name string) *relationRow {
		if rel[name] == nil {
			rel[name] = &relationRow{Name: name}
		}
		return rel[name]
	}
	for name, s := range r.ByRelation {
		row := relRow(name)
		row.TestCases, row.Findings = s.TestCases, s.Findings
	}
	kinds := map[result.Kind]*kindRow{}
	kindRowOf := func(k result.Kind) *kindRow {
		if kinds[k] == nil {
			kinds[k] = &kindRow{Kind: k}
		}
		return kinds[k]
	}
	byRel := map[string][]result.Finding{}
	for _, f := range r.Findings {
		kindRowOf(f.Kind).Findings++
		if _, ok := r.ByRelation[f.Relation]; !ok {
			relRow(f.Relation).Findings++
		}
		byRel[f.Relation] = append(byRel[f.Relation], f)
	}
	for name, fs := range byRel {
		relRow(name).Failing = result.TallyOf(fs).Cases
	}

	for i, g := range groups {
		relRow(g.Relation).Groups++
		kindRowOf(g.Kind).Groups++
		gv := groupView{N: i + 1, Anchor: fmt.Sprintf("g%d", i+1), G: g}
		gv.Headline = g.Title
		if gv.Headline == "" { // a report.json from before titles
			gv.Headline = g.Relation + ": " + cmp.Or(g.Checker, string(g.Kind))
		}
		for _, id := range g.Findings {
			if id == g.Example {
				continue
			}
			o := otherView{ID: id, Href: bundle.Path(id) + "/"}
			if f := byID[id]; f != nil {
				o.Seed, o.Spot = f.SeedFile, spotText(f.Spot)
				b := openBundle(outDir, f)
				o.Href = b.rel + "/"
				red, err := b.reduced(f)
				if err != nil {
					return nil, err
				}
				o.Reduced = red
			}
			gv.Others = append(gv.Others, o)
		}
		f := byID[g.Example]
		if f == nil {
			gv.Missing = true
		} else {
			ex, err := newExample(outDir, f)
			if err != nil {
				return nil, err
			}
			gv.Example = ex
		}
		p.Groups = append(p.Groups, gv)
	}

	for _, name := range slices.Sorted(maps.Keys(rel)) {
		p.Relations = append(p.Relations, *rel[name])
	}
	order := []result.Kind{result.Oracle, result.Crash, result.Timeout, result.RejectedFollowUp}
	for _, k := range order {
		if kinds[k] != nil {
			p.Kinds = append(p.Kinds, *kinds[k])
			delete(kinds, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		p.Kinds = append(p.Kinds, *kinds[k])
	}
	return p, nil
}

// newExample gathers the evidence of a group's example from its bundle.
func newExample(outDir string, f0 *result.Finding) (exampleView, error) {
	b := openBundle(outDir, f0)
	f, err := b.finding(*f0)
	if err != nil {
		return exampleView{}, err
	}
	ex := exampleView{F: f, Href: b.rel + "/", Spot: spotText(f.Spot), Stderr: f.Stderr}
	if ex.Reduced, err = b.reduced(&f); err != nil {
		return ex, err
	}
	for _, k := range slices.Sorted(maps.Keys(f.Bindings)) {
		ex.Bindings = append(ex.Bindings, binding{k, f.Bindings[k]})
	}
	if ex.Repro, err = b.repro(); err != nil {
		return ex, err
	}

	// The input change i → i′.
	// Bundles keep the inputs under the seed's base name.
	seed := path.Base(filepath.ToSlash(f.SeedFile))
	in, okIn, err := b.read(bundle.BaseDir, seed)
	if err != nil {
		return ex, err
	}
	in2, okIn2, err := b.read(bundle.FollowUpDir, seed)
	if err != nil {
		return ex, err
	}
	switch {
	case !okIn && !okIn2:
		ex.InNote = "The bundle has no copy of the base or the follow-up input."
	case !okIn:
		ex.InNote = "The bundle has no copy of the base input."
	case !okIn2 && f.Role == transpiler.Base.String():
		// The base run failed: there is no follow-up, only the base.
		ex.InNote = "The base run failed, so there is no follow-up input: above is the base input."
		ex.Input = plainLines(in)
	case !okIn2:
		ex.InNote = "The bundle has no copy of the follow-up input."
	case in == in2:
		ex.InNote = "The follow-up input is identical to the base input."
	default:
		ex.Input = unified(in, in2)
	}

	// The outputs o and o′ of the failing file, against the prediction.
	if f.File != "" {
		file := f.File
		o, okO, err := b.read(bundle.BaseOutDir, file)
		if err != nil {
			return ex, err
		}
		o2, okO2, err := b.read(bundle.FollowOutDir, file)
		if err != nil {
			return ex, err
		}
		if !okO2 && f.Actual != "" {
			o2, okO2 = f.Actual, true
		}
		switch {
		case !okO && !okO2:
			ex.OutNote = f.File + " is in neither output."
		default:
			if !okO {
				ex.OutNote = f.File + " is not in o."
			} else if !okO2 {
				ex.OutNote = f.File + " is not in o′."
			}
			ex.Output = buildSideBySide(o, o2, f.Expected, f.Expected != "")
			if f.Expected == "" {
				ex.OutNote = strings.TrimSpace(ex.OutNote + " The finding carries no predicted content, so no line is marked.")
			}
		}
	}
	if d, ok, err := b.read(bundle.DiffFile); err != nil {
		return ex, err
	} else if ok && d != "" {
		ex.Patch = patchLines(d)
	} else if f.Diff != "" {
		ex.Patch = patchLines(f.Diff)
	}
	return ex, nil
}

func spotText(s result.Spot) string {
	var parts []string
	if s.Line > 0 {
		parts = append(parts, fmt.Sprintf("line %d, column %d", s.Line, s.Col))
	}
	if s.Desc != "" {
		parts = append(parts, s.Desc)
	}
	parts = append(parts, fmt.Sprintf("spot #%d", s.Index))
	return strings.Join(parts, " · ")
}

// fmtDuration prints a duration to a precision that suits its size.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Millisecond).String()
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// plainLines shows a text as numbered lines, without a change.
func plainLines(s string) []uline {
	var out []uline
	for i, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		out = append(out, uline{Old: i + 1, New: i + 1, Text: l})
	}
	return out
}
