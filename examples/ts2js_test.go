package examples_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bench/realbugs"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// ts2jsPacks are the packs of the TypeScript-to-JavaScript transpilers:
// the directory, and the npm package whose version is the release.
var ts2jsPacks = []struct{ dir, pkg string }{
	{"esbuild", "esbuild"},
	{"swc", "@swc/core"},
	{"babel", "@babel/plugin-transform-typescript"},
	{"sucrase", "sucrase"},
}

// ts2jsKnown are the known bugs the packs find besides the benchmark's
// (bench/realbugs/known.yaml): a finding of a correct release that none
// explains is a false alarm of the pack.
func ts2jsKnown(t *testing.T) []*realbugs.Known {
	t.Helper()
	ks, err := realbugs.LoadKnown(filepath.Join("..", "bench", "realbugs", realbugs.KnownFile))
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// needTS2JS skips the test unless the tools tier is on, and fails it when
// node or the pack's transpiler (npm ci in its directory) is missing.
func needTS2JS(t *testing.T, dir, pkg string) string {
	t.Helper()
	testtier.Tools(t, "apt-get install nodejs npm", "node")
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		t.Fatalf("%s is not installed in examples/%s: run `npm ci` there (scripts/test does): %v", pkg, dir, err)
	}
	var p struct{ Version string }
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p.Version
}

// ts2jsRow is one line of the table of a pack on a release.
type ts2jsRow struct {
	pack, release          string
	combinations, cases    int
	bugs, alarms, rejected int
	bugNames, alarmDetails []string
}

// runTS2JS runs the pack's campaign (its seeds, the TypeScript pack's
// and the corpus) on the transpiler NODE_PATH names ("" for the one npm
// ci installed), perCombination test cases per combination of its flags,
// and sorts its findings into known bugs, false alarms and rejected
// follow-ups.
func runTS2JS(t *testing.T, dir, nodePath string, perCombination int) ts2jsRow {
	t.Helper()
	edit := func(cfg *config.Config) error {
		if nodePath != "" {
			cfg.Transpiler.Spec.Env = append(slices.Clone(cfg.Transpiler.Spec.Env), "NODE_PATH="+nodePath)
		}
		return nil
	}
	s, err := setup.Load(filepath.Join(dir, "mcpt.yaml"), setup.Options{Edit: edit, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opt := s.EngineOptions()
	opt.Seed, opt.Workers, opt.OutDir, opt.MaxTime = 1, 2, "", 0
	opt.MaxCases = perCombination * len(s.Combinations())
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	row := ts2jsRow{pack: dir, release: s.Release, combinations: len(s.Combinations()), cases: rep.TestCases}
	known := ts2jsKnown(t)
	bugCases, alarmCases := map[int]bool{}, map[int]bool{}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Kind == result.RejectedFollowUp {
			row.rejected++
			row.alarmDetails = append(row.alarmDetails, fmt.Sprintf("rejected: %s on %s (%s) under %s: %s", f.Relation, filepath.Base(f.SeedFile), f.Spot.Desc, f.Flags, f.Diagnostic))
			continue
		}
		if b := realbugs.Explain(known, dir, s.Release, &f); b != nil {
			bugCases[f.Case] = true
			name := b.What
			if b.Tracker != "" {
				name += " (" + b.Tracker + ")"
			}
			if !seen[name] {
				seen[name] = true
				row.bugNames = append(row.bugNames, name)
			}
			continue
		}
		alarmCases[f.Case] = true
		row.alarmDetails = append(row.alarmDetails, fmt.Sprintf("%s %s %s on %s (%s) under %s: %s\n%s", f.Relation, f.Kind, f.Checker, filepath.Base(f.SeedFile), f.Spot.Desc, f.Flags, f.Message, f.Diff))
	}
	row.bugs, row.alarms = len(bugCases), len(alarmCases)
	return row
}

// checkRow fails the test on a false alarm or on rejected follow-ups over
// 1 % of the test cases.
func checkRow(t *testing.T, r ts2jsRow) {
	t.Helper()
	if r.alarms > 0 || 100*r.rejected > r.cases {
		t.Errorf("%s %s: %d false alarms, %d rejected follow-ups in %d test cases:\n%s", r.pack, r.release, r.alarms, r.rejected, r.cases, strings.Join(r.alarmDetails, "\n"))
	}
}

// TestTS2JSPacks (tools tier) runs each pack on its current release, the
// one `npm ci` installs, under every combination of its flags: the
// release the version command reads is the installed one, and every
// finding is a known bug of the release (the table of the long tier has
// the figures).
func TestTS2JSPacks(t *testing.T) {
	for _, p := range ts2jsPacks {
		t.Run(p.dir, func(t *testing.T) {
			version := needTS2JS(t, p.dir, p.pkg)
			n := 12
			if testtier.On(testtier.LongVar) {
				n = 40
			}
			r := runTS2JS(t, p.dir, "", n)
			if r.release != version {
				t.Errorf("release %q, the installed %s is %s", r.release, p.pkg, version)
			}
			checkRow(t, r)
			t.Logf("%s %s: %d test cases under %d combinations, %d with known bugs (%s)", p.dir, r.release, r.cases, r.combinations, r.bugs, strings.Join(r.bugNames, "; "))
		})
	}
}

// TestTS2JSCorpusTable (long tier) is the table of the packs' READMEs:
// each pack on its current release and, with MCPT_TEST_REALBUGS=1, on the
// fixed and the buggy release of each bug of the benchmark that it tests
// (installed by version from npm into the benchmark's cache),
// MCPT_CORPUS_CASES test cases per combination of flags (default 300) on
// the TypeScript pack's seeds and the corpus: no false alarm (every
// finding is a known bug of the release), at most 1 % rejected
// follow-ups.
func TestTS2JSCorpusTable(t *testing.T) {
	testtier.Long(t, "campaigns of the TypeScript-to-JavaScript packs, 300 test cases per combination of flags")
	per := 300
	if n, err := strconv.Atoi(os.Getenv("MCPT_CORPUS_CASES")); err == nil && n > 0 {
		per = n
	}
	var fixed map[string][]*realbugs.Bug // by pack
	var cache *realbugs.Cache
	if testtier.On(testtier.RealBugsVar) {
		bugs, err := realbugs.LoadAll(filepath.Join("..", "bench", "realbugs", "bugs"))
		if err != nil {
			t.Fatal(err)
		}
		fixed = map[string][]*realbugs.Bug{}
		for _, b := range bugs {
			if dir, ok := strings.CutSuffix(strings.TrimPrefix(b.Pack, "examples/"), "/mcpt.yaml"); ok {
				fixed[dir] = append(fixed[dir], b)
			}
		}
		d, err := realbugs.DefaultCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = &realbugs.Cache{Dir: d}
	}
	var rows []ts2jsRow
	for _, p := range ts2jsPacks {
		t.Run(p.dir, func(t *testing.T) {
			needTS2JS(t, p.dir, p.pkg)
			r := runTS2JS(t, p.dir, "", per)
			checkRow(t, r)
			rows = append(rows, r)
			done := map[string]bool{}
			for _, b := range fixed[p.dir] {
				for _, rel := range []string{b.Fixed, b.Buggy} {
					if done[rel] {
						continue
					}
					done[rel] = true
					bins, err := cache.InstallRelease(context.Background(), b, rel)
					if err != nil {
						t.Fatal(err)
					}
					r := runTS2JS(t, p.dir, filepath.Dir(bins[0]), per)
					if r.release != rel {
						t.Errorf("%s: release %q, installed %s", b.ID, r.release, rel)
					}
					checkRow(t, r)
					rows = append(rows, r)
				}
			}
		})
	}
	var b strings.Builder
	b.WriteString("| pack | release | combinations | test cases | with known bugs | false alarms | rejected follow-ups |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d (%.1f %%) |\n", r.pack, r.release, r.combinations, r.cases, r.bugs, r.alarms, r.rejected, 100*float64(r.rejected)/float64(max(r.cases, 1)))
	}
	t.Logf("the table of the TypeScript-to-JavaScript packs:\n%s", b.String())
	for _, r := range rows {
		if len(r.bugNames) > 0 {
			t.Logf("%s %s: known bugs found: %s", r.pack, r.release, strings.Join(r.bugNames, "; "))
		}
	}
}

// TestTS2JSTranspile (tools tier): each pack's transpile.js, as a command,
// writes NAME.js (exit 0), refuses an input with a syntax error with its
// place (exit 1), and a wrong option or command line with exit 2; it
// prints its release; as a persistent worker it answers each request
// with the same, and the package on NODE_PATH wins over its own.
func TestTS2JSTranspile(t *testing.T) {
	for _, p := range ts2jsPacks {
		t.Run(p.dir, func(t *testing.T) {
			version := needTS2JS(t, p.dir, p.pkg)
			dir := t.TempDir()
			good := filepath.Join(dir, "good.ts")
			bad := filepath.Join(dir, "bad.ts")
			if err := os.WriteFile(good, []byte("export enum E { A, B = 5 }\nexport class K { a = 1; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad, []byte("export const x = ;\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			run := func(env []string, args ...string) (string, int) {
				cmd := exec.Command("node", append([]string{"transpile.js"}, args...)...)
				cmd.Dir, cmd.Env = p.dir, append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return string(out), code
			}
			if out, code := run(nil, "--version"); code != 0 || !strings.HasSuffix(strings.TrimSpace(out), " "+version) {
				t.Errorf("--version: %q, exit %d; want the release %s", out, code, version)
			}
			outdir := filepath.Join(dir, "out")
			if out, code := run(nil, good, outdir); code != 0 {
				t.Errorf("a good input: exit %d: %s", code, out)
			} else if b, err := os.ReadFile(filepath.Join(outdir, "good.js")); err != nil || !strings.Contains(string(b), `"B"`) {
				t.Errorf("good.js: %q, %v", b, err)
			}
			if out, code := run(nil, bad, outdir); code != 1 || !strings.Contains(out, "1:") {
				t.Errorf("a syntax error: exit %d, %q; want 1 and its place", code, out)
			}
			if out, code := run(nil, good); code != 2 || !strings.Contains(out, "INPUT OUTDIR") {
				t.Errorf("no output directory: exit %d, %q; want 2 and the usage", code, out)
			}
			// an option of no kind the transpiler knows, in its own words
			bogus := map[string]string{"esbuild": "target=es3000", "swc": "jsc.target=es3000", "babel": "core.bogusOption=1", "sucrase": "bogusOption=1"}[p.dir]
			if out, code := run(nil, bogus, good, outdir); code != 2 {
				t.Errorf("%s: exit %d, %q; want 2", bogus, code, out)
			}
			// NODE_PATH names a directory without the package: its own
			if out, _ := run([]string{"NODE_PATH=" + dir}, "--version"); !strings.HasSuffix(strings.TrimSpace(out), " "+version) {
				t.Errorf("NODE_PATH without the package: %q", out)
			}
			// the worker: two requests, the second refused
			cmd := exec.Command("node", "transpile.js", "--persistent_worker")
			cmd.Dir = p.dir
			reqs := fmt.Sprintf("{\"arguments\": [%q, %q], \"requestId\": 1}\n{\"arguments\": [%q, %q], \"requestId\": 2}\n", good, filepath.Join(dir, "w"), bad, filepath.Join(dir, "w"))
			cmd.Stdin = strings.NewReader(reqs)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			var codes []int
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var r struct{ ExitCode, RequestID int }
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatalf("worker line %q: %v", l, err)
				}
				codes = append(codes, r.ExitCode*10+r.RequestID)
			}
			if !slices.Equal(codes, []int{1, 12}) {
				t.Errorf("worker answers (exit*10+id) %v, want [1 12]", codes)
			}
		})
	}
}

// TestTS2JSSupports: each pack says which releases it holds for, a
// value of its flags that some releases lack says so, and its
// configuration's matrix is what the pack knows.
func TestTS2JSSupports(t *testing.T) {
	for _, p := range ts2jsPacks {
		t.Run(p.dir, func(t *testing.T) {
			s, err := setup.Load(filepath.Join(p.dir, "mcpt.yaml"), setup.Options{NoRelease: true, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			packs := setup.Packs(s.Relations)
			if len(packs) != 1 || packs[0].Releases.IsZero() {
				t.Fatalf("supports %+v", packs)
			}
			for _, d := range s.Flags {
				for _, v := range d.Values {
					if err := packs[0].CheckFlag(d.Name, v.Name); err != nil {
						t.Error(err)
					}
				}
			}
			if s.Config.Transpiler.Spec.Kind != spec.Worker || len(s.Config.Transpiler.Version) == 0 {
				t.Errorf("a worker with a version command: %+v", s.Config.Transpiler)
			}
		})
	}
}
