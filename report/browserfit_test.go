package report

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
	"github.com/mcpt-tool/mcpt/tree"
)

// minifiedID is a finding added to the compared fixture by the test: a
// locality failure on a file of two lines of 20,000 characters each.
const minifiedID = "c000001-minified"

// addMinified adds to the output directory dir the finding of the
// locality checker on a minified file: its first line gains the new
// variable (allowed), its second a changed number (not allowed), both
// lines 20,000 characters long. The finding is what the checker
// recorded; its bundle is written as the engine writes one.
func addMinified(t *testing.T, dir string) {
	t.Helper()
	line := func(prefix string, n int) string {
		var b strings.Builder
		b.WriteString(prefix)
		for i := 0; b.Len() < 20000; i++ {
			fmt.Fprintf(&b, "v%d=%d,", i, i*n)
		}
		return b.String() + "end;"
	}
	o := tree.Tree{"app.min.js": []byte(line("var ", 1) + "\n" + line("let ", 3) + "\n")}
	o2 := tree.Tree{"app.min.js": []byte(strings.Replace(line("var ", 1), "v7=7,", "v7=7,zqnew=0,", 1) + "\n" + strings.Replace(line("let ", 3), "v9=27,", "v9=28,", 1) + "\n")}
	l := &oracle.Locality{Fresh: []oracle.Name{oracle.NewName([]string{"zqnew", "zqnew", "ZQNEW"})}}
	fails := l.Check(o, o2)
	if len(fails) != 1 || fails[0].Compared == nil {
		t.Fatalf("the locality check of the minified file: %+v", fails)
	}
	fl := fails[0]
	f := result.Finding{
		ID: minifiedID, Kind: result.Oracle, Relation: "add-variable", SeedFile: "app.ts", Case: 1, Mode: "mcp",
		Spot: result.Spot{Line: 1, Col: 1, Desc: "start of the module"}, Bindings: map[string]string{"N": "zqnew"},
		Checker: fl.Checker, File: fl.File, Message: fl.Message, Expected: fl.Expected, Actual: fl.Actual, Diff: fl.Diff, Compared: fl.Compared,
		Bundle: bundle.Path(minifiedID),
	}
	f.Signature = signature.Of(&f)
	err := bundle.Write(filepath.Join(dir, filepath.FromSlash(bundle.Path(minifiedID))), &bundle.Bundle{
		Finding: f, Base: []byte("export let a = 1;\n"), FollowUp: []byte("export let zqnew = 0;\nexport let a = 1;\n"),
		BaseOut: o, FollowUpOut: o2, Repro: "mcpt repro mcpt-out/" + bundle.Path(minifiedID),
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	r.Findings = append(r.Findings, f)
	r.Groups = signature.Group(r.Findings)
	if err := r.Save(filepath.Join(dir, ReportJSON)); err != nil {
		t.Fatal(err)
	}
}

// pageFit is what the page says of its layout and marks, measured in the
// browser.
type pageFit struct {
	Width      float64 `json:"width"`      // the window's
	PageScroll float64 `json:"pageScroll"` // the document's width
	Tables     []struct {
		Class        string  `json:"class"`
		O2Left       float64 `json:"o2Left"`       // the left edge of the o′ (or found) heading
		O2Right      float64 `json:"o2Right"`      // its right edge
		CellRight    float64 `json:"cellRight"`    // the right edge of the widest cell
		ScrollWidth  float64 `json:"scrollWidth"`  // of the box that scrolls the table
		ClientWidth  float64 `json:"clientWidth"`  // of that box
		ContentRight float64 `json:"contentRight"` // the right edge of that box
	} `json:"tables"`
	Compared  bool           `json:"compared"`  // the page has the section on what the check compared
	CmpLines  int            `json:"cmpLines"`  // lines of that section's comparison
	Evidence  bool           `json:"evidence"`  // that section sets a semantic checker's prediction beside what it found
	Predicted int            `json:"predicted"` // cells of the output marked against a prediction
	Flagged   int            `json:"flagged"`   // cells of the output the check pointed at
	Removed   int            `json:"removed"`   // lines marked removed
	RemovedBy map[string]int `json:"removedBy"` // how often each line is marked removed
	OutO      string         `json:"outO"`      // the link to the failing file of o in full, in the bundle
	OutO2     string         `json:"outO2"`     // and of o′
	// RemovedInO is the lines marked removed more often than o has them
	// beyond o′ (from the files in full the page links to).
	RemovedInO []string
}

// measure is the script that measures a page (see pageFit).
const measure = `(() => {
  const out = {width: window.innerWidth, pageScroll: document.documentElement.scrollWidth, tables: []};
  for (const t of document.querySelectorAll("table.sbs, table.cmp")) {
    const ths = t.querySelectorAll("thead th");
    const o2 = ths[1].getBoundingClientRect();
    const box = t.closest(".scroll");
    let cellRight = 0;
    for (const td of t.querySelectorAll("td")) cellRight = Math.max(cellRight, td.getBoundingClientRect().right);
    out.tables.push({class: t.className, o2Left: o2.left, o2Right: o2.right, cellRight,
      scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, contentRight: box.getBoundingClientRect().right});
  }
  const cmp = document.getElementById("compared");
  out.compared = cmp !== null;
  out.cmpLines = cmp ? cmp.querySelectorAll("table.cmp tbody tr:not(.gap)").length : 0;
  out.evidence = cmp ? cmp.querySelector("table.sbs") !== null : false;
  const output = document.querySelector("table.sbs.out");
  out.predicted = output ? output.querySelectorAll("td.unexp, td.miss").length : 0;
  out.flagged = output ? output.querySelectorAll("td.t.flag").length : 0;
  // Lines of o marked removed, to be held to the files in full that the
  // page links to.
  out.removedBy = {};
  out.removed = 0;
  for (const td of output ? output.querySelectorAll("td.t.del") : []) {
    out.removedBy[td.textContent] = (out.removedBy[td.textContent] || 0) + 1;
    out.removed++;
  }
  const link = (id) => { const a = document.getElementById(id); return a ? a.getAttribute("href") : ""; };
  out.outO = link("base-output");
  out.outO2 = link("followup-output");
  return out;
})()`

// TestBrowserFindingPagesFit opens the pages of the compared fixture and
// of a finding on a minified file in headless Chromium at 1280 and 1920
// pixels: nothing is wider than the window, the o′ column of every
// side-by-side view and comparison is within the window and shows its
// lines without scrolling (long lines wrap in their column); a derived
// or semantic page says what its check compared, marks no line against a
// prediction, outlines the lines the check pointed at (when it points at
// lines, as the derived checks do) and strikes
// through as removed no line that o′ still has; the exact page keeps its
// prediction marks. report.html is held to the same layout. Screenshots
// of each page, whole, go to MCPT_SCREENSHOT_DIR when set (else the
// test's temporary directory), named ID-WIDTH.png.
func TestBrowserFindingPagesFit(t *testing.T) {
	chromium, _ := browserFixture(t)
	dir := copyDir(t, comparedFixture)
	addMinified(t, dir)
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("MCPT_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	derived := map[string]bool{minifiedID: true}
	for _, id := range derivedIDs {
		derived[id] = true
	}
	pages := append([]string{exactID, minifiedID}, derivedIDs...)
	for _, width := range []int{1280, 1920} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ctx := startChromium(t, chromium, width, 1000)
			for _, name := range append(pages, "report") {
				path := filepath.Join(dir, PagesDir, name+".html")
				if name == "report" {
					path = filepath.Join(dir, ReportHTML)
				}
				runCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
				err := chromedp.Do(runCtx, chromedp.Navigate("file://"+filepath.ToSlash(path)), chromedp.WaitReady("body"))
				var fit pageFit
				if err == nil {
					fit, err = chromedp.Run(runCtx, chromedp.Evaluate[pageFit](measure))
				}
				var png []byte
				if err == nil {
					png, err = chromedp.Run(runCtx, chromedp.FullScreenshot(100))
				}
				cancel()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", name, width)), png, 0o644); err != nil {
					t.Fatal(err)
				}
				fit.RemovedInO = removedInO(t, filepath.Dir(path), name, fit)
				checkFit(t, name, fit, derived[name], name == exactID)
			}
		})
	}
	t.Logf("screenshots in %s", shots)
}

// removedInO is the lines a page marks removed more often than o has
// them beyond o′, read from the files in full the page links to, in the
// bundle directory (under dir, the page's directory), or that the page of
// finding id names in its bundle archive.
func removedInO(t *testing.T, dir, id string, fit pageFit) []string {
	t.Helper()
	linesOf := func(b []byte) map[string]int {
		n := map[string]int{}
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			n[l]++
		}
		return n
	}
	count := func(href string) map[string]int {
		if href == "" {
			return map[string]int{}
		}
		p, err := url.PathUnescape(href)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("the page's link to a file in full: %v", err)
		}
		return linesOf(b)
	}
	inO, inO2 := count(fit.OutO), count(fit.OutO2)
	if archive := filepath.Join(dir, "..", filepath.FromSlash(bundle.Path(id))); fit.OutO == "" && fit.OutO2 == "" {
		if b, err := bundle.Load(archive); err == nil && b.Finding.File != "" {
			inO, inO2 = linesOf(b.BaseOut[b.Finding.File]), linesOf(b.FollowUpOut[b.Finding.File])
		}
	}
	var lines []string
	for l, n := range fit.RemovedBy {
		if n > max(0, inO[l]-inO2[l]) {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	return lines
}

// checkFit holds the measures of one page to what the test wants.
func checkFit(t *testing.T, name string, fit pageFit, derived, exact bool) {
	t.Helper()
	if len(fit.Tables) == 0 {
		b, _ := json.Marshal(fit)
		t.Fatalf("%s: no side-by-side view measured: %s", name, b)
	}
	if fit.PageScroll > fit.Width+0.5 {
		t.Errorf("%s at %v px: the page is %v px wide", name, fit.Width, fit.PageScroll)
	}
	for k, tb := range fit.Tables {
		switch {
		case tb.O2Left >= fit.Width || tb.O2Right > fit.Width+0.5:
			t.Errorf("%s at %v px: table %d (%s): the o′ column is at %v–%v px, off the window", name, fit.Width, k, tb.Class, tb.O2Left, tb.O2Right)
		case tb.ScrollWidth > tb.ClientWidth+1 || tb.CellRight > tb.ContentRight+1:
			t.Errorf("%s at %v px: table %d (%s) scrolls sideways: %v px in a box of %v px", name, fit.Width, k, tb.Class, tb.ScrollWidth, tb.ClientWidth)
		}
	}
	switch {
	case derived:
		if !fit.Compared || fit.CmpLines == 0 && !fit.Evidence {
			t.Errorf("%s: no section on what the check compared (%d lines, evidence %v)", name, fit.CmpLines, fit.Evidence)
		}
		if fit.Predicted > 0 {
			t.Errorf("%s: %d lines of the outputs marked against a prediction the check never made", name, fit.Predicted)
		}
		if fit.CmpLines > 0 && fit.Flagged == 0 {
			t.Errorf("%s: no line of the outputs outlined as the check's", name)
		}
		if len(fit.RemovedInO) > 0 {
			t.Errorf("%s: %d lines marked removed from o that o′ still has: %q", name, len(fit.RemovedInO), fit.RemovedInO)
		}
	case exact:
		if fit.Compared || fit.Predicted == 0 {
			t.Errorf("%s: the exact finding's page lost its prediction marks (%d) or says what a derived check compared", name, fit.Predicted)
		}
	}
}

// startChromium starts a headless Chromium with a window of w × h pixels
// for the test, and returns its context.
func startChromium(t *testing.T, chromium string, w, h int) context.Context {
	t.Helper()
	// Chromium's helpers may still write into the profile for a moment
	// after it stops, so the profile is removed with retries.
	profile, err := os.MkdirTemp("", "mcpt-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(chromium)}
	for _, f := range []string{"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run", "hide-scrollbars",
		"disable-background-networking", "disable-component-update", "disable-sync"} {
		opts = append(opts, chromedp.Flag(f, true))
	}
	opts = append(opts, chromedp.UserDataDir(profile), chromedp.WindowSize(w, h))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}
