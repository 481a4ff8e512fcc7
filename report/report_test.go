package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// update says to rewrite the signatures and groups of testdata/out instead
// of comparing with them: UPDATE_GOLDEN=1, the module's one switch for
// golden files.
func update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// The fixture, testdata/out, is a campaign output directory: a report.json
// and five bundles made with the reference transpiler cllc and its seeded
// faults on the example seeds: reverse-enums met twice by
// augment-enumeration (traffic.cll and conveyor.cll), count-off-by-one met
// by augment-enumeration (elevator.cll), attr-escape met by add-attribute
// with a value that is an XSS payload (boiler.cll), and a crash under
// add-timer.
const fixture = "testdata/out"

const xssPayload = "</script><script>alert(1)</script>"

// copyFixture copies the fixture into a fresh directory and returns it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "mcpt-out")
	err := filepath.WalkDir(fixture, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(fixture, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func loadFixture(t *testing.T) *result.Report {
	t.Helper()
	r, err := result.Load(filepath.Join(fixture, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFixtureSignatures checks that the fixture's signatures and groups are
// what signature.Of and signature.Group make of its findings (rewrite them with
// UPDATE_GOLDEN=1), and that they group the two reverse-enums findings together.
func TestFixtureSignatures(t *testing.T) {
	r := loadFixture(t)
	changed := false
	for i := range r.Findings {
		f := &r.Findings[i]
		if s := signature.Of(f); s != f.Signature {
			if !update() {
				t.Errorf("%s: stored signature %q, Signature gives %q (run with UPDATE_GOLDEN=1)", f.ID, f.Signature, s)
			}
			f.Signature, changed = s, true
		}
	}
	groups := signature.Group(r.Findings)
	if !slices.EqualFunc(groups, r.Groups, func(a, b result.Group) bool {
		return a.Signature == b.Signature && a.Count == b.Count && a.Example == b.Example && slices.Equal(a.Findings, b.Findings) &&
			a.Title == b.Title && a.File == b.File && a.FileKey == b.FileKey
	}) {
		if !update() {
			t.Errorf("stored groups differ from signature.Group (run with UPDATE_GOLDEN=1)")
		}
		r.Groups, changed = groups, true
	}
	if update() && changed {
		if err := r.Save(filepath.Join(fixture, ReportJSON)); err != nil {
			t.Fatal(err)
		}
		for _, f := range r.Findings {
			b, _ := json.MarshalIndent(f, "", "  ")
			if err := result.WriteFileAtomic(filepath.Join(fixture, filepath.FromSlash(f.Bundle), "finding.json"), append(b, '\n')); err != nil {
				t.Fatal(err)
			}
		}
	}

	sig := map[string]string{}
	for _, f := range r.Findings {
		sig[f.ID] = f.Signature
	}
	if sig["c000042-augment-enumeration"] != sig["c000187-augment-enumeration"] {
		t.Errorf("reverse-enums in traffic.cll and conveyor.cll: %s vs %s", sig["c000042-augment-enumeration"], sig["c000187-augment-enumeration"])
	}
	if sig["c000042-augment-enumeration"] == sig["c000097-augment-enumeration"] {
		t.Errorf("reverse-enums and count-off-by-one share %s", sig["c000042-augment-enumeration"])
	}
	if len(groups) != 4 {
		t.Errorf("%d groups, want 4", len(groups))
	}
}

func writeFixtureHTML(t *testing.T) (dir, html string) {
	t.Helper()
	dir = copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(b)
}

func TestHTMLSummaryAndGroups(t *testing.T) {
	_, html := writeFixtureHTML(t)
	for _, want := range []string{
		// Summary.
		"<b>156</b><span>test cases</span>",
		"<b>172</b><span>transpiler runs</span>",
		"<b>5</b><span>test cases with findings</span>",
		"<b>5</b><span>findings: 4 failed checkers, 1 crash</span>",
		"<title>mcpt report · 5 test cases with findings (4 failed checkers, 1 crash) in 4 groups</title>",
		"<b>4</b><span>distinct groups</span>",
		"mcp mode",
		"random seed 20260412",
		"stopped: budget",
		"<b>11.3s</b><span>wall time</span>",
		"broken_comment.cll",
		// Groups, with their counts.
		// Two groups of one relation and file key say how they differ.
		"1. augment-enumeration: difference:*_types.h · order reversed `ID,` (e.g. traffic_light_types.h)</h3>",
		"augment-enumeration: difference:*_types.h · changed `#define ID«list.upper»ID #` (e.g. elevator_types.h)</h3>",
		"add-attribute: difference:*_attrs.h (e.g. boiler_attrs.h)</h3>",
		"add-timer: crash</h3>",
		`<span class="badge count">2 findings</span>`,
		`<span class="badge count">1 finding</span>`,
		// The example links to its page and its bundle, the group's
		// other findings to their bundles.
		`<a class="mono" href="findings/c000187-augment-enumeration/">c000187-augment-enumeration</a> — <span class="mono">conveyor.cll</span>`,
		`<a class="mono" href="pages/c000042-augment-enumeration.html">c000042-augment-enumeration</a> · <a href="findings/c000042-augment-enumeration/">bundle</a>`,
		// The check in words; in this fixture o is in order, so nothing
		// is said to be wrong in o.
		"<p><strong>Expected:</strong> The relation predicts traffic_light_types.h in o′ from o:",
		"<p><strong>Found:</strong> o′ differs from the prediction: 3 lines of o′ not predicted, 3 predicted lines missing from o′.</p>",
		// Repro commands.
		"<code>mcpt repro mcpt-out/findings/c000042-augment-enumeration</code>",
		"<code>mcpt repro mcpt-out/findings/c000263-add-timer</code>",
		// The crash's standard error.
		"panic: runtime error: index out of range [2] with length 2",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// By relation: test cases, those checked and the undecided checks
	// (none counted in this report.json), those with findings, findings
	// and groups.
	relRow := regexp.MustCompile(`<tr><td>augment-enumeration</td><td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num zero">(\d+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td></tr>`)
	if m := relRow.FindStringSubmatch(html); m == nil || m[1] != "28" || m[2] != "0" || m[3] != "0" || m[4] != "3" || m[5] != "3" || m[6] != "2" {
		t.Errorf("augment-enumeration row %v, want 28 test cases, 0 checked, 0 undecided, 3 with findings, 3 findings, 2 groups", m)
	}
	// The smaller reverse-enums finding is the example; the other is listed.
	if !strings.Contains(html, "1 other finding in this group") {
		t.Error("the second finding of the reverse-enums group is not listed")
	}
}

func TestHTMLMarksExpectedVersusActual(t *testing.T) {
	_, html := writeFixtureHTML(t)
	for _, want := range []string{
		// count-off-by-one: the predicted define is missing, the actual one unexpected.
		`<td class="t miss">#define ELEVATOR_FLOOR_COUNT 6</td><td class="m miss">missing</td>`,
		`<td class="t unexp">#define ELEVATOR_FLOOR_COUNT 7</td><td class="m unexp">unexpected</td>`,
		// o beside o′: the old define removed from o, the new enumerator added as predicted.
		`<td class="t l del">#define ELEVATOR_FLOOR_COUNT 5</td>`,
		`<td class="t add">    ELEVATOR_FLOOR_ZQ_MOVRAT,</td>`,
		// reverse-enums: enumerators out of order are unexpected.
		`<td class="t unexp">    TRAFFIC_LIGHT_STATE_YELLOW,</td>`,
		// The input change.
		`<td class="t add">+  states Red, ZqKelmor, Green, Yellow</td>`,
		`<td class="t del">-  states Red, Green, Yellow</td>`,
		"1 line of o′ not predicted, 1 predicted line missing from o′.",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// Far from any change, unchanged lines are folded.
	if !regexp.MustCompile(`⋯ \d+ unchanged lines`).MatchString(html) {
		t.Error("no folded run of unchanged lines")
	}
}

func TestHTMLEscapesOutputs(t *testing.T) {
	dir, html := writeFixtureHTML(t)
	// The payload is really in an output file of the fixture...
	o2, err := os.ReadFile(filepath.Join(dir, "findings/c000311-add-attribute/followup-out/boiler_attrs.h"))
	if err != nil || !bytes.Contains(o2, []byte(xssPayload)) {
		t.Fatalf("fixture lacks the payload: %v", err)
	}
	// ...and stays text in the report.
	if strings.Contains(html, "<script") || strings.Contains(html, "alert(1)</script>") {
		t.Error("report.html contains a script element")
	}
	if !strings.Contains(html, "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("report.html lacks the escaped payload")
	}
	// Self-contained: nothing is fetched.
	for _, bad := range []string{"http://", "https://", "<link", "src=", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("report.html refers to an external resource: %q", bad)
		}
	}
}

func TestHTMLWithoutGroupsOrFindings(t *testing.T) {
	dir := t.TempDir()
	r := &result.Report{Tool: "mcpt", Mode: "fuzz", TestCases: 10, ByRelation: map[string]result.RelationStats{"add-timer": {TestCases: 10}}}
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ReportHTML))
	if !strings.Contains(string(b), "No findings") {
		t.Error("an empty report does not say there are no findings")
	}

	// A report whose groups were not built gets them from the signatures.
	dir = copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	r.Groups = nil
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, ReportHTML))
	if !strings.Contains(string(b), "<b>4</b><span>distinct groups</span>") {
		t.Error("groups were not rebuilt from the signatures")
	}
}

func TestRebuildIsDeterministic(t *testing.T) {
	a, b := copyFixture(t), copyFixture(t)
	for _, dir := range []string{a, b, a} {
		if err := Rebuild(dir); err != nil {
			t.Fatal(err)
		}
	}
	first := map[string][]byte{}
	for _, name := range []string{ReportHTML, JUnitXML, PagesDir + "/c000042-augment-enumeration.html", PagesDir + "/c000263-add-timer.html"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two rebuilds from the same inputs", name)
		}
		first[name] = x
	}
	// Writing from the loaded report gives the same bytes as Rebuild.
	r, err := result.Load(filepath.Join(a, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(a, r); err != nil {
		t.Fatal(err)
	}
	for name, want := range first {
		got, _ := os.ReadFile(filepath.Join(a, name))
		if !bytes.Equal(got, want) {
			t.Errorf("%s from Write differs from Rebuild", name)
		}
	}
	// Nothing but the two files and the pages, and no temporary file, is
	// left behind.
	entries, _ := os.ReadDir(a)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"findings", JUnitXML, PagesDir, ReportHTML, ReportJSON}; !slices.Equal(names, want) {
		t.Errorf("output directory holds %v, want %v", names, want)
	}
}

func TestRebuildErrors(t *testing.T) {
	if err := Rebuild(t.TempDir()); err == nil {
		t.Error("Rebuild of a directory without report.json succeeded")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ReportJSON), []byte("{not json"), 0o644)
	if err := Rebuild(dir); err == nil {
		t.Error("Rebuild of a broken report.json succeeded")
	}
}

func TestBundleStaysInsideOutDir(t *testing.T) {
	secretDir := func(t *testing.T, dir string) string {
		secret := filepath.Join(filepath.Dir(dir), "secret")
		os.MkdirAll(filepath.Join(secret, "base"), 0o755)
		os.WriteFile(filepath.Join(secret, "repro.txt"), []byte("SECRET-REPRO"), 0o644)
		os.WriteFile(filepath.Join(secret, "finding.json"), []byte(`{"diff":"SECRET-DIFF"}`), 0o644)
		return secret
	}
	// Each way out of the output directory: a bundle path with "..", a
	// symbolic link inside a bundle, a symbolic link as findings/.
	for name, prepare := range map[string]func(t *testing.T, dir string, r *result.Report){
		"dotdot": func(t *testing.T, dir string, r *result.Report) {
			secretDir(t, dir)
			for i := range r.Findings {
				r.Findings[i].Bundle = "../secret"
			}
		},
		"link-in-bundle": func(t *testing.T, dir string, r *result.Report) {
			secret := secretDir(t, dir)
			for _, f := range r.Findings {
				p := filepath.Join(dir, filepath.FromSlash(f.Bundle), "repro.txt")
				os.Remove(p)
				if err := os.Symlink(filepath.Join(secret, "repro.txt"), p); err != nil {
					t.Fatal(err)
				}
			}
		},
		"linked-findings": func(t *testing.T, dir string, r *result.Report) {
			secret := filepath.Join(filepath.Dir(dir), "elsewhere")
			if err := os.Rename(filepath.Join(dir, "findings"), secret); err != nil {
				t.Fatal(err)
			}
			for _, f := range r.Findings {
				os.WriteFile(filepath.Join(secret, strings.TrimPrefix(f.Bundle, "findings/"), "repro.txt"), []byte("SECRET-REPRO"), 0o644)
			}
			if err := os.Symlink(secret, filepath.Join(dir, "findings")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := copyFixture(t)
			r, err := result.Load(filepath.Join(dir, ReportJSON))
			if err != nil {
				t.Fatal(err)
			}
			prepare(t, dir, r)
			if err := Write(dir, r); !errors.Is(err, bundle.ErrRefused) {
				t.Errorf("Write = %v, want a refusal", err)
			}
			for _, name := range []string{ReportHTML, JUnitXML} {
				b, _ := os.ReadFile(filepath.Join(dir, name))
				if bytes.Contains(b, []byte("SECRET-")) {
					t.Errorf("%s read a bundle outside the output directory", name)
				}
			}
		})
	}
}

// JUnit as a CI server reads it.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped   *struct{} `xml:"skipped"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	dir := copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	doc := junitOf(t, dir, r)
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
	}
	wantNames := []string{"add-actuator-command", "add-attribute", "add-configuration-parameter", "add-timer", "augment-enumeration"}
	if !slices.Equal(names, wantNames) {
		t.Fatalf("suites %v, want %v", names, wantNames)
	}
	wantFailures := map[string][]string{
		"add-attribute":       {"boiler.cll"},
		"add-timer":           {"elevator.cll"},
		"augment-enumeration": {"conveyor.cll", "elevator.cll", "traffic.cll"},
	}
	total := 0
	for _, s := range doc.Suites {
		if s.Tests != len(s.Cases) || s.Tests != 8 {
			t.Errorf("suite %s: tests=%d with %d test cases, want 8 (one per seed)", s.Name, s.Tests, len(s.Cases))
		}
		var failed []string
		for _, c := range s.Cases {
			if c.Classname != "mcpt."+s.Name {
				t.Errorf("%s/%s: classname %q", s.Name, c.Name, c.Classname)
			}
			if c.Failure != nil {
				failed = append(failed, c.Name)
			}
		}
		if !slices.Equal(failed, wantFailures[s.Name]) || s.Failures != len(failed) {
			t.Errorf("suite %s: failures %v (attribute %d), want %v", s.Name, failed, s.Failures, wantFailures[s.Name])
		}
		total += s.Tests
		if s.Name == "augment-enumeration" && s.Skipped != 1 {
			t.Errorf("augment-enumeration: %d skipped, want 1 (level_crossing.cll has no enumeration)", s.Skipped)
		}
	}
	if doc.Tests != total || doc.Failures != 5 || doc.Skipped != 1 {
		t.Errorf("totals tests=%d failures=%d skipped=%d, want %d, 5, 1", doc.Tests, doc.Failures, doc.Skipped, total)
	}

	// A failure carries the finding: message, diff and repro command.
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if s.Name == "augment-enumeration" && c.Name == "elevator.cll" {
				f := c.Failure
				if !strings.HasSuffix(c.SystemOut, " test cases, 1 with findings (1 failed checker)\n") {
					t.Errorf("system-out %q does not count the test cases with findings", c.SystemOut)
				}
				if !strings.Contains(f.Message, "elevator_types.h differs from the prediction") || f.Type != "oracle:difference:elevator_types.h" {
					t.Errorf("failure message %q type %q", f.Message, f.Type)
				}
				for _, want := range []string{"-#define ELEVATOR_FLOOR_COUNT 6", "+#define ELEVATOR_FLOOR_COUNT 7", "repro: mcpt repro mcpt-out/findings/c000097-augment-enumeration"} {
					if !strings.Contains(f.Text, want) {
						t.Errorf("failure text lacks %q", want)
					}
				}
			}
			if s.Name == "add-attribute" && c.Failure != nil && !strings.Contains(c.Failure.Text, xssPayload) {
				t.Error("the payload did not survive the round trip through XML")
			}
		}
	}
}

func TestJUnitWithoutCases(t *testing.T) {
	// An older report without per-seed counts still fails the right cases.
	r := loadFixture(t)
	r.Cases = nil
	dir := copyFixture(t)
	doc := junitOf(t, dir, r)
	if doc.Failures != 5 || doc.Tests != 5 || len(doc.Suites) != 5 {
		t.Errorf("tests=%d failures=%d suites=%d, want 5, 5, 5", doc.Tests, doc.Failures, len(doc.Suites))
	}
}

func TestJUnitInvalidCharacters(t *testing.T) {
	// Transpiler output may hold bytes XML cannot carry; the file must parse.
	r := loadFixture(t)
	r.Findings[0].Diff = "+\x00\x1b[31mred\x1b[0m\n"
	r.Findings[0].Message = "bad \x07 bell"
	dir := copyFixture(t)
	junitOf(t, dir, r)
}

// TestHTMLReducedAndBaseCrash: a bundle mcpt reduce wrote beside a finding's
// is shown with it, and a crash of the base run shows the base input
// instead of claiming the bundle has no copy of it.
func TestHTMLReducedAndBaseCrash(t *testing.T) {
	dir := copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	// A reduced bundle beside the example of the first group, and one
	// beside another finding of that group.
	for _, id := range []string{"c000042-augment-enumeration", "c000187-augment-enumeration"} {
		red := filepath.Join(dir, "findings", id+"-reduced")
		for _, sub := range []string{"base", "followup"} {
			if err := os.MkdirAll(filepath.Join(red, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		var seed string
		for _, f := range r.Findings {
			if f.ID == id {
				seed = f.SeedFile
			}
		}
		files := map[string]string{
			"finding.json":     `{"id": "` + id + `-reduced", "kind": "oracle", "relation": "augment-enumeration", "seed_file": "` + seed + `", "message": "m"}`,
			"repro.txt":        "mcpt repro mcpt-out/findings/" + id + "-reduced\n",
			"base/" + seed:     "logic L\ndeclarations\n  states A, B\n",
			"followup/" + seed: "logic L\ndeclarations\n  states A, N, B\n",
		}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(red, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A crash of a seed's base run: its bundle holds the base only.
	crash := filepath.Join(dir, "findings", "s0001-base")
	if err := os.MkdirAll(filepath.Join(crash, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(crash, "base", "boiler.cll"), []byte("logic Boiler\nbroken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Findings = append(r.Findings, result.Finding{
		ID: "s0001-base", Kind: result.Crash, Relation: "-", SeedFile: "boiler.cll", Case: -1, Role: "base",
		Message: "the base run crashed", Signature: "-/crash/base", Bundle: "findings/s0001-base",
	})
	r.Sort()
	r.Groups = signature.Group(r.Findings)
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		`<dt>reduced</dt><dd><a class="mono" href="findings/c000042-augment-enumeration-reduced/">c000042-augment-enumeration-reduced</a>: a base of 3 lines instead of `,
		`<code>mcpt repro mcpt-out/findings/c000042-augment-enumeration-reduced</code>`,
		` · reduced: <a class="mono" href="findings/c000187-augment-enumeration-reduced/">c000187-augment-enumeration-reduced</a></li>`,
		`The base run failed, so there is no follow-up input: above is the base input.`,
		`<td class="t "> broken</td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(html, "no copy of the base") {
		t.Error("report.html says a bundle holding the base has no copy of it")
	}
	// A reduced bundle is no finding of its own.
	if strings.Contains(html, "<dt>reduced</dt><dd><a class=\"mono\" href=\"findings/c000042-augment-enumeration-reduced-reduced/") {
		t.Error("a reduced bundle of a reduced bundle")
	}
}

// TestJUnitReproPastBudget: once the report has shown all the evidence it
// may (maxPageShown), every finding still shows the command that
// reproduces it, not a note that it was not shown.
func TestJUnitReproPastBudget(t *testing.T) {
	dir := copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	// Copies of the findings, each with a diff the size of what one text
	// may show, spend the budget long before the last of them.
	big := strings.Repeat("-x\n", maxShown/3+1)
	var many []result.Finding
	for i := range 2 * maxPageShown / maxShown {
		for _, f := range r.Findings {
			f.ID = fmt.Sprintf("%s-%d", f.ID, i)
			f.Diff = big
			many = append(many, f)
		}
	}
	r.Findings = many
	if err := WriteJUnit(dir, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, JUnitXML))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("[not shown by mcpt")) {
		t.Fatal("the budget was not spent")
	}
	repros := regexp.MustCompile(`repro: ([^&]*)&#xA;`).FindAllSubmatch(data, -1)
	if len(repros) != len(many) {
		t.Fatalf("%d repro lines, want %d", len(repros), len(many))
	}
	for _, m := range repros {
		if !bytes.HasPrefix(m[1], []byte("mcpt repro ")) {
			t.Fatalf("repro: %s", m[1])
		}
	}
}

// TestFindingPagesGolden compares the pages of an oracle finding and of a
// crash with testdata/pages (rewrite them with UPDATE_GOLDEN=1).
func TestFindingPagesGolden(t *testing.T) {
	dir := copyFixture(t)
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"c000042-augment-enumeration", "c000263-add-timer", "c000311-add-attribute"} {
		got, err := os.ReadFile(filepath.Join(dir, PagesDir, id+".html"))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "pages", id+".html")
		if update() {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (run with UPDATE_GOLDEN=1)", id, golden)
		}
	}
	// The XSS payload of add-attribute is text on its page.
	b, _ := os.ReadFile(filepath.Join(dir, PagesDir, "c000311-add-attribute.html"))
	if bytes.Contains(b, []byte(xssPayload)) || !bytes.Contains(b, []byte("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Error("the page of add-attribute does not escape the payload")
	}
}

// TestPagesDirLink refuses to write finding pages through a symbolic link.
func TestPagesDirLink(t *testing.T) {
	dir := copyFixture(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, PagesDir)); err != nil {
		t.Fatal(err)
	}
	var ie *InputError
	if err := Rebuild(dir); !errors.As(err, &ie) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Rebuild with pages a link: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("wrote %d files through the link", len(entries))
	}
}

// TestHTMLSeedsSkipped: the seeds a relation skipped are listed with
// their relations and messages, escaped.
func TestHTMLSeedsSkipped(t *testing.T) {
	dir := t.TempDir()
	r := &result.Report{Tool: "mcpt", Mode: "mcp", TestCases: 10, ByRelation: map[string]result.RelationStats{"add-timer": {TestCases: 10}},
		Seeds: result.SeedStats{Total: 3, Skipped: []result.SeedSkip{
			{Seed: "a.cll", Relations: []string{"add-timer", "add-state"}, Message: "a.cll:1:1: expected end of file, found <\"\\ufeff\">"},
			{Seed: "b.cll", Relations: []string{"add-timer"}, Cases: 4, Message: "spot 2 at b.cll:3:1: rel.yaml:9:40: atoi"},
		}}}
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ReportHTML))
	for _, want := range []string{
		`<summary>by a relation that failed on them</summary>`,
		`a.cll (add-timer, add-state): a.cll:1:1: expected end of file, found &lt;&#34;\ufeff&#34;&gt;<br>`,
		`b.cll (add-timer; 4 test cases): spot 2 at b.cll:3:1: rel.yaml:9:40: atoi<br>`,
		`<td class="num">2</td>`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
}

// TestHTMLUndecidedReasons: the table by checker gives, under a checker's
// row, why its undecided test cases were undecided, the most frequent
// first and the reasons beyond those kept last.
func TestHTMLUndecidedReasons(t *testing.T) {
	dir := t.TempDir()
	why := map[string]int{"node is not available": 2, "o: # is not in o": 5, result.OtherReasons: 9}
	r := &result.Report{Tool: "mcpt", Mode: "mcp", TestCases: 20, ByRelation: map[string]result.RelationStats{"add-member": {TestCases: 20, Checked: 20,
		Checkers: map[string]result.CheckerStats{"js-shape": {Decided: 4, Undecided: 16, Why: why}}}}}
	if err := WriteHTML(dir, r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ReportHTML))
	html := string(b)
	at := func(s string) int {
		i := strings.Index(html, s)
		if i < 0 {
			t.Fatalf("no %q in the report", s)
		}
		return i
	}
	row, most, less, other := at(`<td class="mono">js-shape</td>`), at("undecided: o: # is not in o</td><td class=\"num\">5<"),
		at("undecided: node is not available</td><td class=\"num\">2<"), at("undecided: (other reasons)</td><td class=\"num\">9<")
	if !(row < most && most < less && less < other) {
		t.Errorf("the reasons are not under the row, most frequent first, the others last: %d %d %d %d", row, most, less, other)
	}
}

// TestJUnitCounted: a finding counted in its group takes one line of its
// failure: its test case, checker, file and spot, and the command that
// makes it again; the bundled finding before it keeps its message, diff
// and repro command.
func TestJUnitCounted(t *testing.T) {
	dir := copyFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	var ex result.Finding
	for _, f := range r.Findings {
		if f.ID == "c000097-augment-enumeration" {
			ex = f
		}
	}
	if ex.ID == "" {
		t.Fatal("no finding c000097-augment-enumeration in the fixture")
	}
	for _, n := range []int{200, 201} {
		f := ex
		f.ID, f.Case = fmt.Sprintf("c%06d-augment-enumeration", n), n
		f.Strip()
		r.Findings = append(r.Findings, f)
	}
	doc := junitOf(t, dir, r)
	text := ""
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if s.Name == "augment-enumeration" && c.Name == "elevator.cll" && c.Failure != nil {
				text = c.Failure.Text
			}
		}
	}
	line := func(n int) string {
		return fmt.Sprintf("c%06d-augment-enumeration: oracle %s on elevator_types.h, counted in its group without a bundle (mcpt repro --case %d makes it again) at %s\n", n, ex.Checker, n, spotText(ex.Spot))
	}
	want := "\n" + line(200) + line(201)
	if !strings.HasSuffix(text, want) {
		t.Errorf("failure text ends\n%s\nwant\n%s", text[max(0, len(text)-600):], want)
	}
	if !strings.Contains(text, "repro: mcpt repro mcpt-out/findings/c000097-augment-enumeration") || strings.Count(text, ex.Message) != 1 {
		t.Errorf("the bundled finding's lines:\n%s", text)
	}
}

// junitOf writes r's junit.xml into dir and returns it parsed; a file
// that does not parse fails the test.
func junitOf(t *testing.T, dir string, r *result.Report) xSuites {
	t.Helper()
	if err := WriteJUnit(dir, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, JUnitXML))
	if err != nil {
		t.Fatal(err)
	}
	var doc xSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	return doc
}
