package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// browserFixture skips the test unless MCPT_TEST_TOOLS=1 (and then fails
// without Chromium), and returns Chromium and a copy of the fixture with
// its report and pages written.
func browserFixture(t *testing.T) (chromium, dir string) {
	t.Helper()
	testtier.Tools(t, "apt-get install chromium", "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	dir = copyFixture(t)
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	return chromium, dir
}

// TestBrowserRendersReport opens the fixture's report.html in a real
// headless Chromium: the page must load without console errors or
// exceptions, show the group headings, keep the XSS payload as visible
// text without running it, and leave a screenshot for people to look at
// (in MCPT_SCREENSHOT_DIR when set). It runs with MCPT_TEST_TOOLS=1 and
// then fails when Chromium is missing.
func TestBrowserRendersReport(t *testing.T) {
	chromium, dir := browserFixture(t)
	r, err := result.Load(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}

	// Chromium's helpers may still write into the profile for a moment after
	// it stops, so the profile is removed with retries and not by t.TempDir.
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
	for _, f := range []string{"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
		"disable-background-networking", "disable-component-update", "disable-sync"} {
		opts = append(opts, chromedp.Flag(f, true))
	}
	opts = append(opts, chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}

	var (
		mu       sync.Mutex
		problems []string
		dialogs  []string
	)
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	err = chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				report("console.%s: %v", ev.Type, ev.Args)
			}
		case *runtime.EventExceptionThrown:
			report("exception: %s", ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				report("log error (%s): %s", ev.Entry.Source, ev.Entry.Text)
			}
		case *page.EventJavascriptDialogOpening:
			mu.Lock()
			dialogs = append(dialogs, ev.Message)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// A dialog would block the page: close any, so that the test ends and
	// reports it instead of hanging.
	go func() {
		for _, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()

	runCtx, cancelRun := context.WithTimeout(ctx, 60*time.Second)
	defer cancelRun()
	abs, err := filepath.Abs(filepath.Join(dir, ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(abs)
	if err := chromedp.Do(runCtx,
		chromedp.Navigate(url),
		chromedp.WaitVisible("#g1 h3"),
	); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}

	// Every group heading is there and visible.
	headings, err := chromedp.Run(runCtx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("section.group h3")]
		.filter(h => h.getBoundingClientRect().height > 0 && getComputedStyle(h).visibility === "visible")
		.map(h => h.innerText)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(headings) != len(r.Groups) {
		t.Errorf("%d visible group headings, want %d: %q", len(headings), len(r.Groups), headings)
	}
	for i, g := range r.Groups {
		want := fmt.Sprintf("%d. %s", i+1, g.Relation)
		if i < len(headings) && !strings.HasPrefix(headings[i], want) {
			t.Errorf("heading %d is %q, want it to start with %q", i+1, headings[i], want)
		}
	}

	// The payload is text on the page, and no script exists or ran.
	state, err := chromedp.Run(runCtx, chromedp.Evaluate[map[string]any](`({
		scripts: document.scripts.length,
		payloadCells: [...document.querySelectorAll("td")]
			.filter(td => td.textContent.includes("</script><script>alert(1)</script>") && td.getBoundingClientRect().height > 0).length,
		title: document.title,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := state["scripts"].(float64); n != 0 {
		t.Errorf("the page holds %v script elements", n)
	}
	if n, _ := state["payloadCells"].(float64); n < 1 {
		t.Errorf("the payload is not visible as text (%v cells)", state["payloadCells"])
	}
	if title, _ := state["title"].(string); !strings.Contains(title, "5 test cases with findings") {
		t.Errorf("title %q", title)
	}

	// Screenshots: the top of the page as a reader first sees it, and the
	// whole page.
	shots := os.Getenv("MCPT_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	top, err := chromedp.Run(runCtx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	full, err := chromedp.Run(runCtx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	for name, png := range map[string][]byte{"report-top.png": top, "report-full.png": full} {
		if len(png) < 8 || string(png[1:4]) != "PNG" {
			t.Errorf("%s is not a PNG", name)
		}
		path := filepath.Join(shots, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}

	// Late console messages arrive before this point: the screenshots took
	// several round trips to the page.
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("browser: %s", p)
	}
	if len(dialogs) > 0 {
		t.Errorf("the page opened dialogs: %q", dialogs)
	}
}

// TestBrowserRendersFindingPage opens the page of a finding in headless
// Chromium (chromium --headless --dump-dom, then --screenshot): the page
// has its sections (the check in words, both inputs with the follow-up's
// change marked, o and o′ side by side and in full, the diff, the repro
// command), keeps the XSS payload of another finding's page as text, and
// leaves a screenshot (finding.png, in MCPT_SCREENSHOT_DIR when set). It
// runs with MCPT_TEST_TOOLS=1 and then fails when Chromium is missing.
func TestBrowserRendersFindingPage(t *testing.T) {
	chromium, dir := browserFixture(t)
	profile := t.TempDir()
	headless := func(page string, args ...string) []byte {
		t.Helper()
		abs, err := filepath.Abs(filepath.Join(dir, PagesDir, page))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
			"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + profile, "--window-size=1280,1800"}, append(args, "file://"+filepath.ToSlash(abs))...)...)
		cmd.Dir = t.TempDir()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v", args, err)
		}
		return out
	}

	dom := string(headless("c000042-augment-enumeration.html", "--dump-dom"))
	for _, want := range []string{
		`<h1>Finding <span class="mono">c000042-augment-enumeration</span></h1>`,
		`<section class="group" id="expectation">`,
		`<strong>Expected:</strong> The relation predicts traffic_light_types.h in o′ from o`,
		`<strong>Found:</strong> o′ differs from the prediction`,
		`<div id="followup-input">`,
		`<p class="sub" id="base-input">The base input i in full, in the bundle: <a class="mono" href="../findings/c000042-augment-enumeration/base/traffic.cll">traffic.cll</a> (21 lines).</p>`,
		`<th colspan="2">o · base output</th><th colspan="3">o′ · follow-up output</th>`,
		`<a id="base-output" class="mono" href="../findings/c000042-augment-enumeration/base-out/traffic_light_types.h">`,
		`<a id="followup-output" class="mono" href="../findings/c000042-augment-enumeration/followup-out/traffic_light_types.h">`,
		`<details open="" id="diff">`,
		`<pre class="repro"><code>mcpt repro mcpt-out/findings/c000042-augment-enumeration</code></pre>`,
		`<a href="../report.html#g1">group 1</a>`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the finding page's DOM lacks %q", want)
		}
	}
	xss := string(headless("c000311-add-attribute.html", "--dump-dom"))
	if strings.Contains(xss, "<script") || !strings.Contains(xss, "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the add-attribute page runs or loses the payload")
	}

	shots := os.Getenv("MCPT_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(shots, "finding.png")
	headless("c000042-augment-enumeration.html", "--screenshot="+png)
	b, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Errorf("%s is not a PNG", png)
	}
	t.Logf("screenshot: %s", png)
}
