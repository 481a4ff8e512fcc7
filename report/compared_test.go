package report

import (
	"bytes"
	"encoding/json"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

// The fixture testdata/compared is an output directory of six findings
// of real runs, each bundle cut to the failing file of o and o′: an exact
// difference finding of the Thrift pack's add-field on thrift with its
// field-order fault (C++ lines up to 194 characters), an order finding of
// the derived add-field on the same (order-by-id), a locality and an
// analogy finding of the CLL derived relations on cllc with
// skip-second-tick and skip-third-clear, a js-shape finding of the
// TypeScript semantic relations on faulty-tsc.js --fault=declare-fields
// and a dts-probe finding on --fault=drop-optional-methods. The findings
// carry what their checkers compared (result.Compared), but the exact one.
const comparedFixture = "testdata/compared"

// The findings of the fixture, by what they are.
const (
	exactID    = "c000027-add-field"
	orderID    = "c000044-add-field"
	localityID = "c000359-add-timer"
	analogyID  = "c000362-add-timer-2"
	jsShapeID  = "c000196-class-member-semantic"
	dtsProbeID = "c000014-interface-member-semantic"
)

var derivedIDs = []string{orderID, localityID, analogyID, jsShapeID, dtsProbeID}

// copyDir copies the directory src into a fresh directory named mcpt-out
// and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "mcpt-out")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
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

// comparedPages writes the pages of the compared fixture and returns the
// output directory.
func comparedPages(t *testing.T) string {
	t.Helper()
	dir := copyDir(t, comparedFixture)
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// outputSection is the side-by-side view of o and o′ on a page.
func outputSection(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, "<h4>Output <span")
	if i < 0 {
		t.Fatal("the page has no output section")
	}
	j := strings.Index(page[i:], "</table>")
	return page[i : i+j]
}

var (
	cellRE = regexp.MustCompile(`<td class="([^"]*)">([^<]*)</td>`)
	tagRE  = regexp.MustCompile(`<[^>]*>`)
)

// cells are the code cells of an HTML fragment whose class has class,
// their texts unescaped.
func cells(fragment, class string) []string {
	var out []string
	for _, m := range cellRE.FindAllStringSubmatch(fragment, -1) {
		if strings.Contains(" "+m[1]+" ", " "+class+" ") {
			out = append(out, html.UnescapeString(m[2]))
		}
	}
	return out
}

// TestComparedPagesGolden compares the pages of the compared fixture with
// testdata/pages (rewrite them with UPDATE_GOLDEN=1).
func TestComparedPagesGolden(t *testing.T) {
	dir := comparedPages(t)
	for _, id := range append([]string{exactID}, derivedIDs...) {
		got, err := os.ReadFile(filepath.Join(dir, PagesDir, id+".html"))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "pages", id+".html")
		if update() {
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
}

// TestDerivedPagesShowWhatWasCompared: the page of a derived or semantic
// finding shows what its checker compared, marks nothing of o′ against a
// prediction it never made, strikes through as removed no line that o′
// still has, and outlines on the outputs the lines the checker pointed
// at. The exact finding keeps its prediction view.
func TestDerivedPagesShowWhatWasCompared(t *testing.T) {
	dir := comparedPages(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]result.Finding{}
	for _, f := range r.Findings {
		byID[f.ID] = f
	}
	for _, id := range derivedIDs {
		f := byID[id]
		if f.Compared == nil {
			t.Fatalf("%s: the fixture's finding has no comparison", id)
		}
		b, err := os.ReadFile(filepath.Join(dir, PagesDir, id+".html"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !strings.Contains(page, `<div class="compared" id="compared">`) || !strings.Contains(page, "<h4>What the "+f.Compared.Kind+" check compared") {
			t.Errorf("%s: no section on what the %s check compared", id, f.Compared.Kind)
		}
		if !strings.Contains(page, "<strong>Expected:</strong> "+html.EscapeString(f.Compared.Expects)) {
			t.Errorf("%s: the check in words does not say what the checker expects", id)
		}
		if strings.Contains(page, "differs from the prediction") || strings.Contains(page, "not predicted") {
			t.Errorf("%s: the page speaks of a prediction of the file", id)
		}
		out := outputSection(t, page)
		if n := len(cells(out, "unexp")) + len(cells(out, "miss")); n > 0 {
			t.Errorf("%s: %d lines of the outputs marked against a prediction", id, n)
		}
		// A line marked removed is one o has more of than o′.
		count := func(side string) map[string]int {
			b, err := os.ReadFile(filepath.Join(dir, "findings", id, side, filepath.FromSlash(f.File)))
			if err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, l := range strings.Split(string(b), "\n") {
				n[l]++
			}
			return n
		}
		inO, inO2 := count("base-out"), count("followup-out")
		removed := map[string]int{}
		for _, l := range cells(out, "del") {
			removed[l]++
		}
		for l, n := range removed {
			if n > inO[l]-inO2[l] {
				t.Errorf("%s: %q is marked removed from o %d times, but o′ has it %d times of o's %d", id, l, n, inO2[l], inO[l])
			}
		}
		// Every line of o′ the checker pointed at is outlined there.
		for _, l := range f.Compared.Lines {
			if l.O2 == nil {
				continue
			}
			want := regexp.MustCompile(`<td class="n">` + itoa(l.O2.N) + `</td><td class="t [a-z ]*flag">`)
			if !want.MatchString(out) {
				t.Errorf("%s: line %d of o′, %s to the check, is not outlined", id, l.O2.N, l.Role)
			}
		}
	}

	b, err := os.ReadFile(filepath.Join(dir, PagesDir, exactID+".html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	out := outputSection(t, page)
	if strings.Contains(page, `id="compared"`) || len(cells(out, "unexp")) == 0 || len(cells(out, "miss")) == 0 || !strings.Contains(page, "<strong>Found:</strong> o′ differs from the prediction") {
		t.Errorf("the exact finding's page lost its prediction view")
	}
}

// TestComparedLinesOnPage: the lines of a comparison are on the page as
// the checker recorded them: o's and o′'s facing each other with their
// numbers, the line looked for marked as such, and what the check made
// of each.
func TestComparedLinesOnPage(t *testing.T) {
	dir := comparedPages(t)
	b, err := os.ReadFile(filepath.Join(dir, PagesDir, analogyID+".html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	i := strings.Index(page, `id="compared"`)
	j := strings.Index(page[i:], "</table>")
	if i < 0 || j < 0 {
		t.Fatal("no comparison table")
	}
	table := page[i : i+j]
	rows := strings.Split(table, "<tr class=")[1:]
	r, _ := result.Load(filepath.Join(dir, ReportJSON))
	var f result.Finding
	for _, x := range r.Findings {
		if x.ID == analogyID {
			f = x
		}
	}
	if len(rows) != len(f.Compared.Lines) {
		t.Fatalf("%d rows, the finding has %d lines", len(rows), len(f.Compared.Lines))
	}
	for k, l := range f.Compared.Lines {
		text := html.UnescapeString(tagRE.ReplaceAllString(rows[k], "|"))
		if !strings.Contains(text, "|"+itoa(l.O.N)+"|") || !strings.Contains(text, l.O.Text) {
			t.Errorf("row %d lacks the sibling's line %d: %s", k, l.O.N, text)
		}
		switch l.Role {
		case result.RoleFound:
			if !strings.Contains(text, "|"+itoa(l.O2.N)+"|") || !strings.Contains(text, l.O2.Text) || !strings.Contains(text, "found") {
				t.Errorf("row %d lacks the new member's line %d: %s", k, l.O2.N, text)
			}
		case result.RoleMissing:
			if !strings.Contains(text, "looked for: |"+l.Want) || !strings.Contains(text, "missing") {
				t.Errorf("row %d lacks the line looked for: %s", k, text)
			}
		}
	}
}

// TestPageWithoutCompared: a derived finding of an earlier mcpt, which
// does not say what its checker compared, is shown as before: its
// Expected taken for a prediction.
func TestPageWithoutCompared(t *testing.T) {
	dir := copyDir(t, comparedFixture)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Compared = nil
		b, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Bundle), "finding.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Save(filepath.Join(dir, ReportJSON)); err != nil {
		t.Fatal(err)
	}
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, PagesDir, orderID+".html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if strings.Contains(page, `id="compared"`) || !strings.Contains(page, "<strong>Found:</strong> o′ differs from the prediction") || len(cells(outputSection(t, page), "unexp")) == 0 {
		t.Error("a finding without a comparison is not shown as before")
	}
}

// TestDerivedSideBySideMoves: on the view of a derived check's outputs, a
// line the line diff pairs as removed but that o′ still has (moved) is
// marked moved, not removed; a line o has twice and o′ once is removed
// once; the lines the checker pointed at are flagged, in o and in o′, and
// kept visible among unchanged lines.
func TestDerivedSideBySideMoves(t *testing.T) {
	var o, o2 []string
	for i := range 20 {
		o = append(o, "line "+itoa(i))
	}
	o2 = append(o2, o...)
	o2[3], o2[4] = o[4], o[3]                                      // a swap: a move
	o2 = append(o2[:10], append([]string{"zqnew"}, o2[10:]...)...) // a new line
	o = append(o, "twice", "twice")
	o2 = append(o2, "twice")
	v := buildDerivedSideBySide(strings.Join(o, "\n")+"\n", strings.Join(o2, "\n")+"\n", map[int]string{16: "sibling"}, map[int]string{11: "extra"})
	classes := map[string][]string{}
	flagged := map[string]string{}
	for _, r := range v.Rows {
		if r.LClass != "" {
			classes[r.LClass] = append(classes[r.LClass], "o:"+r.L)
		}
		if r.RClass != "" {
			classes[r.RClass] = append(classes[r.RClass], "o′:"+r.R)
		}
		if r.LFlag {
			flagged["o:"+r.L] = r.Mark
		}
		if r.RFlag {
			flagged["o′:"+r.R] = r.Mark
		}
	}
	if got := strings.Join(classes[clsRemoved], ","); got != "o:twice" {
		t.Errorf("removed: %s, want o:twice alone", got)
	}
	m := classes[clsMoved]
	slices.Sort(m)
	if len(m) != 2 || !strings.HasPrefix(m[0], "o:line ") || "o′:"+strings.TrimPrefix(m[0], "o:") != m[1] {
		t.Errorf("moved: %q, want the swapped line on both sides", classes[clsMoved])
	}
	if got := strings.Join(classes[clsAdded], ","); got != "o′:zqnew" {
		t.Errorf("added: %s", got)
	}
	if len(classes[clsUnexpected])+len(classes[clsMissing]) > 0 || v.Predicted {
		t.Errorf("marks against a prediction: %v", classes)
	}
	if flagged["o:line 15"] != "sibling" || flagged["o′:zqnew"] != "extra" || len(flagged) != 2 {
		t.Errorf("flagged %v", flagged)
	}
	if v.Removed != 1 || v.Moved != 1 || v.Added != 1 {
		t.Errorf("counts: removed %d, moved %d, added %d", v.Removed, v.Moved, v.Added)
	}
}

// TestJUnitCompared: junit.xml writes what a derived or semantic checker
// compared, not its Expected and Actual as a prediction and a file.
func TestJUnitCompared(t *testing.T) {
	dir := copyDir(t, comparedFixture)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(dir, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, JUnitXML))
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(b))
	for _, want := range []string{
		"  expects: The relation puts zqzzknwh after edits: wherever cpp/chat_types.cpp lists them",
		"  order: edits → zqzzknwh → (none)\n",
		`  out-of-order: o′:642 xfer += oprot->writeFieldBegin("zqzzknwh", ::apache::thrift::protocol::T_I64, 8); (zqzzknwh's line: at the place`,
		"  missing: o:13 if (ctx->t_pa.active && ctx->t_pa.remaining_ms > 0) { ctx->t_pa.remaining_ms -= PE_CYCLE_TIME_MS; } | o′: looked for if (ctx->t_zqwcnxvo.active",
		"  difference: export OrderBook.instance.zqoekjay: is an own property (undefined [w e c]), predicted none\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("junit.xml lacks %q", want)
		}
	}
	if strings.Contains(text, "expected/cpp/chat_types.cpp") {
		t.Error("junit.xml shows the order finding's Expected as a prediction of the file")
	}
	if !strings.Contains(text, "--- expected/cpp/inventory_types.cpp\n+++ actual/cpp/inventory_types.cpp\n") {
		t.Error("junit.xml lost the exact finding's diff")
	}
}
