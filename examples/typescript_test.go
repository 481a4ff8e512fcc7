package examples_test

// The TypeScript pack (examples/typescript) against tsc 5.9, which
// scripts/test installs with `npm ci` in examples/typescript, and against
// tsc-worker.js, the same compiler behind Bazel's persistent worker
// protocol, run by mcpt's worker transpiler (mcpt.worker.yaml).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

const tsDir = "typescript"

// needTsc skips the test unless MCPT_TEST_TOOLS=1, and then fails it when
// the pack's compiler is not installed.
func needTsc(t *testing.T) {
	t.Helper()
	testtier.Tools(t, "apt-get install nodejs npm", "node")
	if _, err := os.Stat(filepath.Join(tsDir, "node_modules", "typescript", "package.json")); err != nil {
		t.Fatalf("TypeScript is not installed in examples/typescript: run `npm ci` there (scripts/test does): %v", err)
	}
}

// tsWorker is the pack's worker transpiler as mcpt.worker.yaml configures
// it, with the worker's own flags (the fault) added.
func tsWorker(t testing.TB, s *setup.Setup, flags ...string) transpiler.Transpiler {
	t.Helper()
	w, err := transpiler.NewWorker(transpiler.Worker{
		Command: transpiler.Command{Process: spec.Process{
			Argv: append([]string{"node", "tsc-worker.js"}, flags...),
			Dir:  s.Config.Dir, Timeout: time.Minute, Reject: []int{1, 2},
		}},
		Arguments: s.Config.Transpiler.Argv[1:],
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// closeAtEnd closes the transpiler of a setup when the test ends (a worker
// pool's processes).
func closeAtEnd(t testing.TB, s *setup.Setup) {
	if c, ok := s.Transpiler.(io.Closer); ok {
		t.Cleanup(func() { _ = c.Close() })
	}
}

// wpProc is one tsc-worker.js process that a test talks to directly.
type wpProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

type workRequest struct {
	Arguments []string `json:"arguments"`
	RequestID int      `json:"requestId"`
}

type workResponse struct {
	ExitCode  int    `json:"exitCode"`
	Output    string `json:"output"`
	RequestID int    `json:"requestId"`
}

func startWorker(dir string) (*wpProc, error) {
	cmd := exec.Command("node", "tsc-worker.js")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &wpProc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// call sends one request and reads its response.
func (p *wpProc) call(args []string) (*workResponse, error) {
	p.next++
	req, err := json.Marshal(workRequest{Arguments: args, RequestID: p.next})
	if err != nil {
		return nil, err
	}
	if _, err := p.in.Write(append(req, '\n')); err != nil {
		return nil, err
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	var res workResponse
	if err := json.Unmarshal(line, &res); err != nil {
		return nil, fmt.Errorf("response %q: %w", line, err)
	}
	if res.RequestID != p.next {
		return nil, fmt.Errorf("response to request %d, want %d", res.RequestID, p.next)
	}
	return &res, nil
}

// twins runs every input through tsc and through the worker and records
// every difference between the two: status, exit code or output tree.
type twins struct {
	tsc, worker transpiler.Transpiler
	mu          sync.Mutex
	runs        int
	tscTime     time.Duration
	workerTime  time.Duration
	diffs       []string
}

func (w *twins) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	a, err := w.tsc.Transpile(ctx, req)
	if err != nil {
		return nil, err
	}
	b, err := w.worker.Transpile(ctx, req)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.runs++
	w.tscTime += a.Duration
	w.workerTime += b.Duration
	if d := compareRuns(a, b); d != "" {
		w.diffs = append(w.diffs, fmt.Sprintf("%s (%s): %s\n--- input:\n%s", req.Name, req.Role, d, req.Src))
	}
	return a, nil
}

func compareRuns(a, b *transpiler.Result) string {
	if a.Status != b.Status || a.ExitCode != b.ExitCode {
		return fmt.Sprintf("tsc %s (exit %d), worker %s (exit %d): %s / %s", a.Status, a.ExitCode, b.Status, b.ExitCode, a.Stderr, b.Stderr)
	}
	names := slices.Sorted(maps.Keys(a.Files))
	if bn := slices.Sorted(maps.Keys(b.Files)); !slices.Equal(names, bn) {
		return fmt.Sprintf("tsc wrote %v, worker wrote %v", names, bn)
	}
	for _, n := range names {
		if !bytes.Equal(a.Files[n], b.Files[n]) {
			return fmt.Sprintf("%s differs:\n--- tsc\n%s\n--- worker\n%s", n, a.Files[n], b.Files[n])
		}
	}
	return ""
}

// loadWorker loads mcpt.worker.yaml, whose requests must be mcpt.yaml's
// tsc command lines.
func loadWorker(t testing.TB, s *setup.Setup) *setup.Setup {
	t.Helper()
	sw, err := setup.Load(filepath.Join(tsDir, "mcpt.worker.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	closeAtEnd(t, sw)
	if got, want := sw.Config.Transpiler.Arguments, s.Config.Transpiler.Argv[1:]; !slices.Equal(got, want) {
		t.Fatalf("mcpt.worker.yaml's arguments are %q, mcpt.yaml's tsc arguments %q", got, want)
	}
	return sw
}

// TestTypeScriptPack runs a campaign of every relation of the pack on the
// worker (mcpt.worker.yaml), which must find nothing, and a shorter one on
// both tsc (mcpt.yaml) and the worker: each seed and follow-up must come
// out byte for byte the same from both. tsc as a command takes seconds a
// run (Node starts and loads the compiler each time), so the comparison
// takes twinCases test cases, which reach every seed's base and a
// follow-up of each relation's first spots; the worker's longer campaign
// is what shows the relations hold.
func TestTypeScriptPack(t *testing.T) {
	needTsc(t)
	s := load(t, pack{dir: tsDir})
	sw := loadWorker(t, s)
	tw := &twins{tsc: s.Transpiler, worker: sw.Transpiler}
	const twinCases = 16
	twin := campaign(t, s, tw, nil, twinCases)
	for i, d := range tw.diffs {
		if i == 3 {
			t.Errorf("… and %d more", len(tw.diffs)-i)
			break
		}
		t.Errorf("tsc and tsc-worker.js disagree on %s", d)
	}
	if tw.runs < twinCases {
		t.Fatalf("%d runs compared, want at least %d", tw.runs, twinCases)
	}
	if len(twin.Findings) > 0 {
		t.Fatalf("%d findings against the real tsc (false alarms, or a tsc bug):\n%s", len(twin.Findings), describe(twin, 3))
	}
	rep := campaign(t, s, sw.Transpiler, nil, tsCases)
	if rep.TestCases < tsCases {
		t.Fatalf("%d test cases, want %d", rep.TestCases, tsCases)
	}
	if len(rep.Findings) > 0 {
		t.Fatalf("%d findings against tsc's worker (false alarms, or a tsc bug):\n%s", len(rep.Findings), describe(rep, 3))
	}
	tsEveryRelation(t, s, sw.Transpiler, rep)
	t.Logf("%d test cases, 0 findings; %d inputs identical from tsc (%v a run) and the worker (%v a run)", rep.TestCases, tw.runs,
		(tw.tscTime / time.Duration(tw.runs)).Round(time.Millisecond), (tw.workerTime / time.Duration(tw.runs)).Round(time.Millisecond))
	for _, r := range s.Relations {
		t.Logf("  %-26s %4d test cases", r.Name, rep.ByRelation[r.Name].TestCases)
	}
}

// TestTypeScriptFaultIsDetected runs the enum relations and add-constant
// against the worker's fault, --sort-enum-members (a declaration file lists
// numeric enum members by value): the seeds' enums mostly ascend, so the
// fault shows where a member goes in out of order, which only the explicit
// values of add-enum-member-explicit do everywhere; add-constant cannot
// see it.
func TestTypeScriptFaultIsDetected(t *testing.T) {
	needTsc(t)
	s := load(t, pack{dir: tsDir})
	tr := tsWorker(t, s, "--sort-enum-members")
	rep := campaign(t, s, tr, []string{"add-enum-member", "add-enum-member-explicit", "add-constant"}, 90)
	if len(rep.Findings) == 0 {
		t.Fatalf("--sort-enum-members went unnoticed in %d test cases", rep.TestCases)
	}
	for _, f := range rep.Findings {
		if f.Kind != result.Oracle {
			t.Errorf("finding %s is a %s, want an oracle finding: %s", f.ID, f.Kind, f.Message)
		}
		if f.Relation == "add-constant" || f.Checker != "dts-enum" {
			t.Errorf("finding %s by %s / %s, which should not see this fault:\n%s", f.ID, f.Relation, f.Checker, f.Diff)
		}
	}
	if rep.ByRelation["add-enum-member-explicit"].Findings == 0 {
		t.Errorf("add-enum-member-explicit did not catch the fault")
	}
	t.Logf("%d findings in %d test cases: add-enum-member %d, add-enum-member-explicit %d", len(rep.Findings), rep.TestCases,
		rep.ByRelation["add-enum-member"].Findings, rep.ByRelation["add-enum-member-explicit"].Findings)
}

// TestTypeScriptWorkerProtocol checks the worker's answers to what is not a
// good compilation: a bad option, an input tsc rejects, several requests on
// one process, and the end of its input.
func TestTypeScriptWorkerProtocol(t *testing.T) {
	needTsc(t)
	s := load(t, pack{dir: tsDir})
	p, err := startWorker(s.Config.Dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.call([]string{"--no-such-option"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || !strings.Contains(res.Output, "TS5023") {
		t.Errorf("a bad option: exit %d, output %q; want 1 and TS5023", res.ExitCode, res.Output)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ts")
	if err := os.WriteFile(bad, []byte("export const X: number = \"s\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := slices.Clone(s.Config.Transpiler.Argv[1:])
	for i, a := range args {
		args[i] = strings.NewReplacer(transpiler.PlaceholderInput, bad, transpiler.PlaceholderOutDir, filepath.Join(dir, "out")).Replace(a)
	}
	res, err = p.call(args)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || !strings.Contains(res.Output, "TS2322") {
		t.Errorf("a type error: exit %d, output %q; want 1 and TS2322", res.ExitCode, res.Output)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a rejected input left output (--noEmitOnError): %v", err)
	}
	if err := p.in.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("the worker did not exit cleanly at the end of its input: %v", err)
	}
}

// BenchmarkTypeScriptPack measures test cases per second of a campaign of
// every relation of the pack, with tsc started for each run and with the
// persistent worker (go test ./examples -run '^$' -bench TypeScriptPack
// -benchtime 1x).
func BenchmarkTypeScriptPack(b *testing.B) {
	if _, err := os.Stat(filepath.Join(tsDir, "node_modules", "typescript", "package.json")); err != nil {
		b.Fatalf("TypeScript is not installed in examples/typescript: run `npm ci` there: %v", err)
	}
	s, err := setup.Load(filepath.Join(tsDir, "mcpt.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"tsc", "worker"} {
		b.Run(mode, func(b *testing.B) {
			var tr transpiler.Transpiler = s.Transpiler
			if mode == "worker" {
				tr = loadWorker(b, s).Transpiler
			}
			cases := 0
			b.ResetTimer()
			for range b.N {
				cases += campaign(b, s, tr, nil, 60).TestCases
			}
			b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
		})
	}
}

// TestTypeScriptDerived runs the derived relations of derived.yaml
// (locality, order and analogy instead of hand-written predictions) on the
// worker, whose output TestTypeScriptPack shows to be tsc's: no finding on
// the real compiler, and --sort-enum-members caught by order alone.
func TestTypeScriptDerived(t *testing.T) {
	needTsc(t)
	// the derived relations check some constructs at run time
	s, err := setup.Load(filepath.Join(tsDir, "derived.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	rep := campaign(t, s, tsWorker(t, s), nil, tsCases)
	if len(rep.Findings) > 0 {
		t.Fatalf("%d findings of the derived relations against the real tsc:\n%s", len(rep.Findings), describe(rep, 3))
	}
	tsEveryRelation(t, s, tsWorker(t, s), rep)
	rep = campaign(t, s, tsWorker(t, s, "--sort-enum-members"), nil, 80)
	if rep.ByRelation["add-enum-member-explicit"].Findings == 0 {
		t.Fatalf("the derived add-enum-member-explicit did not catch --sort-enum-members in %d test cases", rep.TestCases)
	}
	for _, f := range rep.Findings {
		// the enum relations that insert a value out of order see it:
		// explicit values, and special ones (-4 among ascending members)
		if f.Relation != "add-enum-member-explicit" && f.Relation != "add-enum-member-special" || f.Checker != "order" {
			t.Errorf("finding %s by %s / %s, which should not see this fault: %s", f.ID, f.Relation, f.Checker, f.Message)
		}
	}
	t.Logf("%d test cases without a finding; the fault: %d findings in %d test cases", tsCases, len(rep.Findings), rep.TestCases)
}

// TestTypeScriptSameFindings runs one campaign with the fault as a command
// (tsc-worker.js compiling once per run) and the same campaign with it as a
// persistent worker: the same seed must give the same test cases and the
// same findings.
func TestTypeScriptSameFindings(t *testing.T) {
	needTsc(t)
	s := load(t, pack{dir: tsDir})
	args := s.Config.Transpiler.Argv[1:]
	cmd, err := transpiler.NewCommand(transpiler.Command{Process: spec.Process{
		Argv: slices.Concat([]string{"node", "tsc-worker.js", "--sort-enum-members", "--"}, args),
		Dir:  s.Config.Dir, Reject: []int{1, 2}, Timeout: time.Minute,
	}})
	if err != nil {
		t.Fatal(err)
	}
	only := []string{"add-enum-member-explicit", "add-constant"}
	// 12 test cases hold findings; tsc as a command takes about two
	// seconds a run, so more would only slow the suite.
	a := campaign(t, s, cmd, only, 12)
	b := campaign(t, s, tsWorker(t, s, "--sort-enum-members"), only, 12)
	if len(a.Findings) == 0 {
		t.Fatalf("no finding in %d test cases: the fault is not on", a.TestCases)
	}
	if a.TestCases != b.TestCases || a.TranspilerRuns != b.TranspilerRuns {
		t.Errorf("command: %d test cases, %d runs; worker: %d test cases, %d runs", a.TestCases, a.TranspilerRuns, b.TestCases, b.TranspilerRuns)
	}
	key := func(r *result.Report) []string {
		var ks []string
		for _, f := range r.Findings {
			ks = append(ks, fmt.Sprintf("%s %s %s %s: %s", f.ID, f.Relation, f.Checker, f.SeedFile, f.Message))
		}
		return ks
	}
	if ka, kb := key(a), key(b); !slices.Equal(ka, kb) {
		t.Errorf("findings differ:\ncommand:\n%s\nworker:\n%s", strings.Join(ka, "\n"), strings.Join(kb, "\n"))
	}
	t.Logf("%d findings in %d test cases, the same with and without the worker", len(a.Findings), a.TestCases)
}

// tsEveryRelation runs each relation that the campaign of rep did not
// reach (a campaign of tsCases test cases visits few seeds: every
// relation at up to four spots of each) in a campaign of its own of 8
// test cases: each must run on the real compiler, without a finding.
// tsOtherConfig are the relations that the pack's other configurations
// run, and why mcpt.yaml's flags and seeds give them no spot.
var tsOtherConfig = map[string]string{
	"add-export-assignment": "export = needs module CommonJS or NodeNext and a script seed (releases.yaml runs it on scripts/)",
}

func tsEveryRelation(t *testing.T, s *setup.Setup, tr transpiler.Transpiler, rep *result.Report) {
	t.Helper()
	for _, r := range s.Relations {
		if why, ok := tsOtherConfig[r.Name]; ok {
			if n := rep.ByRelation[r.Name].TestCases; n > 0 {
				t.Errorf("relation %s ran %d test cases, but %s", r.Name, n, why)
			}
			continue
		}
		if rep.ByRelation[r.Name].TestCases > 0 {
			continue
		}
		own := campaign(t, s, tr, []string{r.Name}, 8)
		if own.TestCases == 0 {
			t.Errorf("relation %s ran no test case", r.Name)
		}
		if len(own.Findings) > 0 {
			t.Errorf("relation %s: %d findings against the real tsc:\n%s", r.Name, len(own.Findings), describe(own, 3))
		}
	}
}
