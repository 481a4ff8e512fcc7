package report

import (
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

//go:embed report.html.tmpl finding.html.tmpl evidence.tmpl style.tmpl
var templateFiles embed.FS

// htmlTemplates are report.html and the finding pages, which share their
// style and the views of a finding's evidence.
var htmlTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"plural": plural,
	"join":   strings.Join,
}).ParseFS(templateFiles, "*.tmpl"))

// WriteHTML writes outDir/report.html for r: a summary of the campaign and,
// for each group of findings, its smallest example with the evidence read
// from the example's bundle; and first the page of each finding that has
// one (see WritePages), which report.html links to. The files need nothing
// else: no network, no script, no external style.
func WriteHTML(outDir string, r *result.Report) error { return writeHTML(outDir, r, nil, true) }

// writeHTML is WriteHTML with the facts of the bundles read ahead, or nil,
// and with the pages or without them.
func writeHTML(outDir string, r *result.Report, facts factSet, pages bool) error {
	out, err := openOutput(outDir)
	if err != nil {
		return err
	}
	defer out.Close()
	p, err := newPage(out, r, facts, pages)
	if err != nil {
		return &InputError{err}
	}
	if err := writePages(outDir, out, r, p); err != nil {
		return err
	}
	return result.WriteAtomic(filepath.Join(outDir, ReportHTML), func(w io.Writer) error {
		return htmlTemplates.ExecuteTemplate(w, "report.html.tmpl", p)
	})
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
	Checkers   []checkerRow
	Kinds      []kindRow
	Skipped    int
	Groups     []groupView
	Unreported bool // findings with no group: an old or hand-made report
	// CombinationCount is how many combinations of flags each seed ran
	// under (0 without flags).
	CombinationCount int

	pages map[string]bool // the findings that get a page (pageSet)
	// PagesLater is set for the report of a campaign or a merge, which
	// writes no pages: mcpt report OutDir writes them.
	PagesLater bool
	OutDir     string
}

type relationRow struct {
	Name                                 string
	TestCases, Failing, Findings, Groups int
	// Checked counts the test cases whose outputs were compared, Undecided
	// the checks that could not decide on them.
	Checked, Undecided int
}

// checkerRow is what one checker of a relation concluded.
type checkerRow struct {
	Relation, Checker          string
	Decided, Failed, Undecided int
	// Why are the reasons of the undecided test cases, most first.
	Why []whyRow
}

// whyRow is a reason some test cases were undecided, and their number.
type whyRow struct {
	Reason string
	N      int
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
	// Counted are the first of the group's counted findings (without a
	// bundle), CountedMore how many more report.json lists.
	Counted     []countedView
	CountedMore int
	// ReproCase is the command that makes a counted finding again, with N
	// for its test case.
	ReproCase string
}

// countedView is the line of a finding counted in its group.
type countedView struct {
	Case       int
	Seed, Spot string
}

// maxCountedShown bounds the counted findings a group's card lists.
const maxCountedShown = 100

type otherView struct {
	ID, Seed, Flags, Spot string
	Candidate             bool         // the group's candidate for reduction
	Href                  string       // the finding's bundle, relative to the report
	Page                  string       // the finding's page, relative to the report; "" when it has none
	Reduced               *reducedView // its reduced bundle, if mcpt reduce made one
}

// reducedView is the bundle mcpt reduce wrote beside a finding's own.
type reducedView struct {
	ID, Href, Repro string
	Lines, Before   int // lines of the reduced base input, and of the original's
}

type exampleView struct {
	F        result.Finding
	Href     string // the bundle, relative to the directory of the page that shows it
	Packed   bool   // the bundle is an archive: its files have no link of their own
	Page     string // the finding's page, relative to report.html; "" when it has none
	Reading  reading
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
	// Compared is what a derived or semantic checker compared; nil for
	// an exact check (and for findings of earlier versions of mcpt).
	Compared *comparedView

	// Full is set on a finding's own page, which shows besides i′ in
	// full and links to the base input and the failing file of o and o′
	// in the bundle.
	Full        bool
	FollowUp    []uline // i′ with the change marked
	BaseIn      *fileLink
	OutO, OutO2 *fileLink
}

type binding struct{ Name, Value string }

func newPage(out *bundle.Reader, r *result.Report, facts factSet, pages bool) (*htmlPage, error) {
	p := newPageHeader(r)
	p.PagesLater = !pages
	p.OutDir = out.Dir()
	groups := r.Groups
	if len(groups) == 0 && len(r.Findings) > 0 {
		groups = signature.Group(r.Findings)
		p.Unreported = true
	}
	byID := map[string]*result.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
		if r.Findings[i].Counted {
			continue // no bundle
		}
		if err := facts.check(out, &r.Findings[i]); err != nil {
			return nil, err
		}
	}
	t := tallyTables(r)
	bud := newBudget()
	if pages {
		p.pages = pageSet(groups, byID)
	}
	reproCase := fmt.Sprintf("mcpt repro --case N -c %s %s", cmp.Or(r.Config, "CONFIG"), out.Dir())
	for i, g := range groups {
		t.relation(g.Relation).Groups++
		t.kind(g.Kind).Groups++
		gv, err := newGroupView(out, i+1, g, byID, bud, p.pages, facts)
		gv.ReproCase = reproCase
		if err != nil {
			return nil, err
		}
		p.Groups = append(p.Groups, gv)
	}
	p.Relations, p.Kinds = t.relationRows(), t.kindRows()
	p.Checkers = checkerRows(r)
	return p, nil
}

// newPageHeader fills the summary cards of the page: what was found, the
// time taken and the seeds skipped.
func newPageHeader(r *result.Report) *htmlPage {
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
	p.Skipped = len(r.Seeds.Rejected) + len(r.Seeds.Nondeterministic) + len(r.Seeds.Crashed) + len(r.Seeds.Skipped)
	p.CombinationCount = len(r.Flags)
	return p
}

// tables holds the rows of the per-relation and per-kind tables while
// they are counted.
type tables struct {
	relations map[string]*relationRow
	kinds     map[result.Kind]*kindRow
}

// tallyTables counts the test cases and findings of each relation and the
// findings of each kind; the groups are counted by the caller.
func tallyTables(r *result.Report) *tables {
	t := &tables{relations: map[string]*relationRow{}, kinds: map[result.Kind]*kindRow{}}
	for name, s := range r.ByRelation {
		row := t.relation(name)
		row.TestCases, row.Findings = s.TestCases, s.Findings
		row.Checked, row.Undecided = s.Checked, s.Undecided()
	}
	byRel := map[string][]result.Finding{}
	for _, f := range r.Findings {
		t.kind(f.Kind).Findings++
		if _, ok := r.ByRelation[f.Relation]; !ok {
			t.relation(f.Relation).Findings++
		}
		byRel[f.Relation] = append(byRel[f.Relation], f)
	}
	for name, fs := range byRel {
		t.relation(name).Failing = result.TallyOf(fs).Cases
	}
	return t
}

// relation is the row of the relation name, made on first use.
func (t *tables) relation(name string) *relationRow {
	if t.relations[name] == nil {
		t.relations[name] = &relationRow{Name: name}
	}
	return t.relations[name]
}

// kind is the row of the kind k, made on first use.
func (t *tables) kind(k result.Kind) *kindRow {
	if t.kinds[k] == nil {
		t.kinds[k] = &kindRow{Kind: k}
	}
	return t.kinds[k]
}

// relationRows gives the relation rows by name.
func (t *tables) relationRows() []relationRow {
	var rows []relationRow
	for _, name := range slices.Sorted(maps.Keys(t.relations)) {
		rows = append(rows, *t.relations[name])
	}
	return rows
}

// kindRows gives the kind rows, the known kinds first in a fixed order,
// then any other by name.
func (t *tables) kindRows() []kindRow {
	var rows []kindRow
	order := []result.Kind{result.Oracle, result.Crash, result.Timeout, result.RejectedFollowUp}
	for _, k := range order {
		if t.kinds[k] != nil {
			rows = append(rows, *t.kinds[k])
			delete(t.kinds, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t.kinds)) {
		rows = append(rows, *t.kinds[k])
	}
	return rows
}

// newGroupView is the section of group g, numbered n: its headline, its
// example with the evidence and its other findings.
func newGroupView(out *bundle.Reader, n int, g result.Group, byID map[string]*result.Finding, bud *budget, pages map[string]bool, facts factSet) (groupView, error) {
	gv := groupView{N: n, Anchor: fmt.Sprintf("g%d", n), G: g}
	gv.Headline = g.Title
	if gv.Headline == "" { // a report.json from before titles
		gv.Headline = g.Relation + ": " + cmp.Or(g.Checker, string(g.Kind))
	}
	for _, id := range g.Findings {
		if id == g.Example {
			continue
		}
		if f := byID[id]; f != nil && f.Counted {
			if len(gv.Counted) == maxCountedShown {
				gv.CountedMore++
				continue
			}
			gv.Counted = append(gv.Counted, countedView{Case: f.Case, Seed: f.SeedFile, Spot: spotText(f.Spot)})
			continue
		}
		o, err := newOtherView(out, id, byID[id], bud, facts)
		if err != nil {
			return gv, err
		}
		if pages[id] && byID[id] != nil {
			o.Page = pageHref(id)
		}
		gv.Others = append(gv.Others, o)
	}
	f := byID[g.Example]
	if f == nil {
		gv.Missing = true
		return gv, nil
	}
	ex, err := newExample(out, f, bud, false)
	if err != nil {
		return gv, err
	}
	if pages[f.ID] {
		ex.Page = pageHref(f.ID)
	}
	gv.Example = ex
	return gv, nil
}

// newOtherView is the line of a group's finding id other than its
// example; f is nil when the report does not hold the finding.
func newOtherView(out *bundle.Reader, id string, f *result.Finding, bud *budget, facts factSet) (otherView, error) {
	o := otherView{ID: id, Href: bundleHref(bundle.Path(id))}
	if f == nil {
		return o, nil
	}
	o.Seed, o.Flags, o.Spot, o.Candidate = f.SeedFile, f.Flags, spotText(f.Spot), f.Candidate
	if fa := facts[bundleRel(f)]; fa != nil && !fa.reduced {
		o.Href = bundleHref(bundleRel(f))
		return o, nil
	}
	b := openBundle(out, f, bud)
	defer b.close()
	o.Href = bundleHref(b.rel)
	red, err := b.reduced(f)
	if err != nil {
		return o, err
	}
	o.Reduced = red
	return o, nil
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

// checkerRows gives what each checker of each relation concluded, by
// relation and checker name.
func checkerRows(r *result.Report) []checkerRow {
	var rows []checkerRow
	for _, rel := range slices.Sorted(maps.Keys(r.ByRelation)) {
		cs := r.ByRelation[rel].Checkers
		for _, name := range slices.Sorted(maps.Keys(cs)) {
			c := cs[name]
			row := checkerRow{Relation: rel, Checker: name, Decided: c.Decided, Failed: c.Failed, Undecided: c.Undecided}
			for _, why := range slices.Sorted(maps.Keys(c.Why)) {
				row.Why = append(row.Why, whyRow{why, c.Why[why]})
			}
			// The others last; then the most frequent first.
			slices.SortStableFunc(row.Why, func(a, b whyRow) int {
				if (a.Reason == result.OtherReasons) != (b.Reason == result.OtherReasons) {
					if a.Reason == result.OtherReasons {
						return 1
					}
					return -1
				}
				return b.N - a.N
			})
			rows = append(rows, row)
		}
	}
	return rows
}
