package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/result"
)

// The JUnit XML schema as CI servers read it: a suite per relation, a test
// case per seed under that relation, a failure per test case with findings.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr,omitempty"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// WriteJUnit writes outDir/junit.xml for r: a test suite per relation and a
// test case per seed under it, which fails with the findings of that seed
// and relation. Counts come from r.Cases; a report without them gets one
// test case per seed with findings.
func WriteJUnit(outDir string, r *result.Report) error { return writeJUnit(outDir, r, nil) }

// writeJUnit is WriteJUnit with the facts of the bundles read ahead, or
// nil.
func writeJUnit(outDir string, r *result.Report, facts factSet) error {
	out, err := openOutput(outDir)
	if err != nil {
		return err
	}
	defer out.Close()
	doc, err := newJUnit(out, r, facts)
	if err != nil {
		return &InputError{err}
	}
	return result.WriteAtomic(filepath.Join(outDir, JUnitXML), func(w io.Writer) error {
		if _, err := io.WriteString(w, xml.Header); err != nil {
			return err
		}
		enc := xml.NewEncoder(w)
		enc.Indent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
}

// seedRelation is a seed under a combination of flags (none without
// flags) and a relation: a test case of the JUnit file.
type seedRelation struct{ seed, flags, relation string }

// name is the test case's name: the seed, with its combination of flags
// in parentheses when it has one.
func (k seedRelation) name() string {
	if k.flags != "" {
		return k.seed + " (" + k.flags + ")"
	}
	return k.seed
}

func newJUnit(out *bundle.Reader, r *result.Report, facts factSet) (*junitSuites, error) {
	cases, found := casesOf(r)
	doc := &junitSuites{Name: "mcpt"}
	if r.Timing.WallNS > 0 {
		doc.Time = fmt.Sprintf("%.3f", time.Duration(r.Timing.WallNS).Seconds())
	}
	props := junitProperties(r)
	bud := newBudget()
	keys := slices.SortedFunc(maps.Keys(cases), func(a, b seedRelation) int {
		return cmp.Or(strings.Compare(a.relation, b.relation), strings.Compare(a.seed, b.seed), strings.Compare(a.flags, b.flags))
	})
	for _, rel := range relationNames(r, cases) {
		s := junitSuite{Name: rel, Properties: props}
		for _, k := range keys {
			if k.relation != rel {
				continue
			}
			tc, err := newJUnitCase(out, r, k, cases[k], found[k], bud, facts)
			if err != nil {
				return nil, err
			}
			if tc.Failure != nil {
				s.Failures++
			}
			if tc.Skipped != nil {
				s.Skipped++
			}
			s.Cases = append(s.Cases, tc)
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	return doc, nil
}

// casesOf adds up r's test cases by seed and relation, and gathers its
// findings the same way; a seed and relation with findings and no count
// gets a zero count.
func casesOf(r *result.Report) (map[seedRelation]result.CaseSummary, map[seedRelation][]*result.Finding) {
	cases := map[seedRelation]result.CaseSummary{}
	for _, c := range r.Cases {
		k := seedRelation{c.Seed, c.Flags, c.Relation}
		old := cases[k]
		old.Seed, old.Flags, old.Relation = c.Seed, c.Flags, c.Relation
		old.TestCases += c.TestCases
		old.Findings += c.Findings
		cases[k] = old
	}
	found := map[seedRelation][]*result.Finding{}
	for i := range r.Findings {
		f := &r.Findings[i]
		k := seedRelation{f.SeedFile, f.Flags, f.Relation}
		found[k] = append(found[k], f)
		if _, ok := cases[k]; !ok {
			cases[k] = result.CaseSummary{Seed: f.SeedFile, Flags: f.Flags, Relation: f.Relation}
		}
	}
	return cases, found
}

// relationNames are the relations of r's summary and of cases, by name.
func relationNames(r *result.Report, cases map[seedRelation]result.CaseSummary) []string {
	relations := map[string]bool{}
	for name := range r.ByRelation {
		relations[name] = true
	}
	for k := range cases {
		relations[k.relation] = true
	}
	return slices.Sorted(maps.Keys(relations))
}

// junitProperties are the properties of every suite: how the campaign ran.
func junitProperties(r *result.Report) []junitProperty {
	props := []junitProperty{{"mode", r.Mode}, {"seed", fmt.Sprint(r.Seed)}}
	if r.Config != "" {
		props = append(props, junitProperty{"config", r.Config})
	}
	if r.Shard != "" {
		props = append(props, junitProperty{"shard", r.Shard})
	}
	if r.Release != "" {
		props = append(props, junitProperty{"release", r.Release})
	}
	if len(r.Flags) > 0 {
		props = append(props, junitProperty{"flags", strings.Join(r.Flags, "; ")})
	}
	return props
}

// newJUnitCase is the test case of seed and relation k, counted by c, with
// its findings fs: it fails when there are findings and is skipped when
// the relation had no test case on the seed (under its flags).
func newJUnitCase(out *bundle.Reader, r *result.Report, k seedRelation, c result.CaseSummary, fs []*result.Finding, bud *budget, facts factSet) (junitCase, error) {
	tc := junitCase{Name: k.name(), Classname: "mcpt." + k.relation}
	switch {
	case len(fs) > 0:
		fail, err := junitFailureOf(out, fs, bud, facts)
		if err != nil {
			return tc, err
		}
		tc.Failure = fail
	case c.Findings > 0:
		// Counted, but the findings are not in this report.
		tc.Failure = &junitFailure{Message: plural(c.Findings, "finding") + " (not in report.json)", Type: "finding"}
	case c.TestCases == 0 && len(r.Cases) > 0:
		tc.Skipped = &junitSkipped{Message: "no test case: the relation has no spot on this seed"}
	}
	if c.TestCases > 0 {
		tc.SystemOut = fmt.Sprintf("%s, %s\n", plural(c.TestCases, "test case"), foundText(c, fs))
	}
	return tc, nil
}

// foundText says what the test cases counted by c found: a count of
// findings, or with fs the test cases with findings and what they are.
func foundText(c result.CaseSummary, fs []*result.Finding) string {
	if len(fs) == 0 {
		return plural(c.Findings, "finding")
	}
	var list []result.Finding
	for _, f := range fs {
		list = append(list, *f)
	}
	t := result.TallyOf(list)
	return fmt.Sprintf("%d with findings (%s)", t.Cases, t.What())
}

// junitFailureOf describes the findings of one seed under one relation.
func junitFailureOf(out *bundle.Reader, fs []*result.Finding, bud *budget, facts factSet) (*junitFailure, error) {
	first := fs[0]
	fail := &junitFailure{Message: first.Message, Type: string(first.Kind)}
	if first.Checker != "" {
		fail.Type += ":" + first.Checker
	}
	if len(fs) > 1 {
		fail.Message += fmt.Sprintf(" (and %s)", plural(len(fs)-1, "more finding"))
	}
	// Output file names are the transpiler's: escaped, not dropped by XML.
	fail.Message, fail.Type = printable.Line(fail.Message), printable.Line(fail.Type)
	var b strings.Builder
	for i, f0 := range fs {
		f, repro, err := junitEvidence(out, f0, bud, facts)
		if err != nil {
			return nil, err
		}
		if i > 0 && !(f.Counted && fs[i-1].Counted) {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %s", f.ID, f.Kind)
		if f.Checker != "" {
			fmt.Fprintf(&b, " %s", f.Checker)
		}
		if f.File != "" {
			fmt.Fprintf(&b, " on %s", f.File)
		}
		if f.Counted {
			// One line: its group's bundled findings say the rest, and a
			// long campaign counts thousands.
			fmt.Fprintf(&b, ", %s at %s\n", repro, spotText(f.Spot))
			continue
		}
		fmt.Fprintf(&b, "\n  %s\n", f.Message)
		fmt.Fprintf(&b, "  spot: %s\n", spotText(f.Spot))
		fmt.Fprintf(&b, "  signature: %s\n", f.Signature)
		fmt.Fprintf(&b, "  repro: %s\n", repro)
		switch {
		case f.Signal != "":
			fmt.Fprintf(&b, "  killed by signal %s\n", f.Signal)
		case f.ExitCode != 0:
			fmt.Fprintf(&b, "  exit code %d\n", f.ExitCode)
		}
		diff := f.Diff
		if c := f.Compared; c != nil {
			// A derived or semantic check: what it compared, not its
			// Expected and Actual as a prediction and a file.
			writeCompared(&b, c)
		} else if diff == "" && f.Expected != "" && f.Expected != f.Actual {
			diff = udiff.Unified("expected/"+f.File, "actual/"+f.File, f.Expected, f.Actual)
		}
		for _, text := range []string{diff, f.Stderr} {
			if text != "" {
				b.WriteString(strings.TrimSuffix(text, "\n") + "\n")
			}
		}
	}
	fail.Text = printable.Text(b.String())
	return fail, nil
}

// junitEvidence is finding f0 with the evidence its bundle adds, cut to
// what is left of the budget, and the command that reproduces it: from
// the facts read ahead, the bundle opened only for evidence still shown.
func junitEvidence(out *bundle.Reader, f0 *result.Finding, bud *budget, facts factSet) (result.Finding, string, error) {
	if f0.Counted {
		return *f0, fmt.Sprintf("counted in its group without a bundle (mcpt repro --case %d makes it again)", f0.Case), nil
	}
	fa := facts[bundleRel(f0)]
	if fa != nil && bud.left <= 0 {
		return (&bundleFiles{bud: bud}).cut(*f0), fa.repro, fa.reproErr
	}
	bd := openBundle(out, f0, bud)
	defer bd.close()
	f, err := bd.finding(*f0)
	if err != nil {
		return f, "", err
	}
	if fa != nil {
		return f, fa.repro, fa.reproErr
	}
	repro, err := bd.repro()
	return f, repro, err
}

// writeCompared writes what a checker compared, a line each: what it
// expects, the order, the lines with their numbers in o and o′ and what
// the check made of them, and a semantic checker's differences.
func writeCompared(b *strings.Builder, c *result.Compared) {
	fmt.Fprintf(b, "  expects: %s\n", c.Expects)
	if len(c.Order) > 0 {
		fmt.Fprintf(b, "  order: %s\n", strings.Join(c.Order, " → "))
	}
	for _, l := range c.Lines {
		var where []string
		if l.O != nil {
			where = append(where, fmt.Sprintf("o:%d %s", l.O.N, strings.TrimSpace(l.O.Text)))
		}
		switch {
		case l.O2 != nil:
			where = append(where, fmt.Sprintf("o′:%d %s", l.O2.N, strings.TrimSpace(l.O2.Text)))
		case l.Want != "":
			where = append(where, "o′: looked for "+strings.TrimSpace(l.Want))
		}
		fmt.Fprintf(b, "  %s: %s", l.Role, strings.Join(where, " | "))
		if l.Why != "" {
			fmt.Fprintf(b, " (%s)", l.Why)
		}
		b.WriteString("\n")
	}
	if c.More > 0 {
		fmt.Fprintf(b, "  … and %d more lines\n", c.More)
	}
	for _, d := range c.Differences {
		fmt.Fprintf(b, "  difference: %s\n", d)
	}
}
