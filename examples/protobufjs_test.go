package examples_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpt-tool/mcpt/bench/realbugs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle/protojs"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/result"
)

// protoJSPacks are the configurations of the Protocol Buffers pack for
// JavaScript and TypeScript, each in the directory of its generator, and
// the npm package `npm ci` installs there.
var protoJSPacks = []struct{ dir, pkg, transpiler string }{
	{"ts-proto", "ts-proto", "ts-proto"},
	{"pbjs", "protobufjs-cli", "pbjs"},
	{"es", "@bufbuild/protoc-gen-es", "protoc-gen-es"},
}

// needProtoJS skips (or, in the tools tier, fails) without node and
// protoc, and fails when the generator of dir is not installed.
func needProtoJS(t *testing.T, dir, pkg string) {
	t.Helper()
	testtier.Tools(t, "apt-get install nodejs npm protobuf-compiler", "node", "protoc")
	if _, err := os.Stat(filepath.Join("protobuf", dir, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
		t.Fatalf("%s is not installed in examples/protobuf/%s: run `npm ci` there (scripts/test does): %v", pkg, dir, err)
	}
}

// protoJSCampaign runs the configuration of dir on seeds (nil: its own)
// under every combination of its flags, cases test cases in all, with the
// configuration's own settings, 2 relations per visit of a seed.
func protoJSCampaign(t *testing.T, dir string, seeds []string, cases int) *result.Report {
	t.Helper()
	s, err := setup.Load(filepath.Join("protobuf", dir, "mcpt.yaml"), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opt := s.EngineOptions()
	// the generators are deterministic: one re-run confirms
	opt.Seed, opt.MaxCases, opt.MaxTime, opt.MaxMR, opt.Workers, opt.ConfirmRuns, opt.OutDir = 1, cases, 0, 2, 2, 1, ""
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestProtobufJSPacks (tools tier): each JavaScript configuration gives no
// oracle finding that is no known bug of the release (bench/realbugs/known.yaml)
// and at most 1 % rejected follow-ups on the pack's seeds, every
// combination of its flags tried, with the generator npm ci pinned.
func TestProtobufJSPacks(t *testing.T) {
	known := ts2jsKnown(t)
	for _, p := range protoJSPacks {
		t.Run(p.dir, func(t *testing.T) {
			needProtoJS(t, p.dir, p.pkg)
			rep := protoJSCampaign(t, p.dir, nil, 40)
			rejected := 0
			for _, f := range rep.Findings {
				if f.Kind == result.RejectedFollowUp {
					rejected++
					continue
				}
				if b := realbugs.Explain(known, p.transpiler, rep.Release, &f); b != nil {
					t.Logf("known bug of %s %s: %s (%s %s)", p.transpiler, rep.Release, b.Name(), f.Relation, f.Message)
					continue
				}
				t.Errorf("false alarm under %s: %s %s %s on %s: %s", f.Flags, f.Relation, f.Checker, f.File, filepath.Base(f.SeedFile), f.Message)
			}
			if rep.TestCases == 0 || rejected*100 > rep.TestCases {
				t.Errorf("%d test cases, %d rejected follow-ups (at most 1 %%)", rep.TestCases, rejected)
			}
			if len(rep.Flags) < 2 {
				t.Errorf("the campaign ran under %v, not the configuration's combinations", rep.Flags)
			}
		})
	}
}

// TestProtobufJSProbe (tools tier): the probe, run by gen.js with each
// generator, writes the facts of every declaration of a seed, and the
// checker holds them against the encoding: every field of orders.proto
// is kept where its generator's naming says, reads back its sample and
// writes back its bytes. A declaration the probe gets wrong would be a
// false alarm on every follow-up.
func TestProtobufJSProbe(t *testing.T) {
	for _, p := range protoJSPacks {
		t.Run(p.dir, func(t *testing.T) {
			needProtoJS(t, p.dir, p.pkg)
			out := t.TempDir()
			cmd := exec.Command("node", filepath.Join("protobuf", "js", "gen.js"), p.dir, filepath.Join("protobuf", "orders.proto"), out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("gen.js %s: %v\n%s", p.dir, err, b)
			}
			b, err := os.ReadFile(filepath.Join(out, "orders"+protojs.Suffix))
			if err != nil {
				t.Fatal(err)
			}
			fields := 0
			for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var f protojs.Fact
				if err := json.Unmarshal([]byte(line), &f); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if f.Error != "" {
					t.Errorf("%s %s: %s", f.Kind, f.Element, f.Error)
				}
				if f.Kind == "field" {
					fields++
					if f.Wire != "same" || f.Value != f.Sample {
						t.Errorf("%s: sample %s read as %s, written back: %s", f.Element, f.Sample, f.Value, f.Wire)
					}
				}
			}
			if fields != 25 {
				t.Errorf("%d fields in the facts of orders.proto, want its 25", fields)
			}
		})
	}
}

// TestProtobufJSCorpus (long and tools tiers) runs each JavaScript
// configuration under each combination of its flags on the pack's seeds,
// its generated seeds and the real files of testdata/corpus/protobuf, and
// prints a table: test cases, oracle false alarms, rejected follow-ups.
// The generators are correct releases, so every finding is a false alarm
// (or a bug of the release). It is a measurement of an hour and more (a
// generator written in JavaScript and its probe cost a second or more per
// run, and every seed's base runs under every combination), so it runs
// only when MCPT_PROTOJS_CASES sets the test cases per combination (the
// pack's README gives 300). Other releases: NODE_PATH, as gen.js reads it.
func TestProtobufJSCorpus(t *testing.T) {
	testtier.Long(t, "campaigns of the JavaScript configurations of the Protocol Buffers pack")
	cases, err := strconv.Atoi(os.Getenv("MCPT_PROTOJS_CASES"))
	if err != nil || cases <= 0 {
		t.Skip("a measurement of an hour and more: MCPT_PROTOJS_CASES=N runs it with N test cases per combination")
	}
	corpus, _ := filepath.Abs(filepath.Join("..", "testdata", "corpus", "protobuf"))
	t.Setenv("PROTO_PATH", corpus)
	var seeds []string
	for _, g := range []string{"protobuf/*.proto", "protobuf/generated/*.proto", "../testdata/corpus/protobuf/*.proto"} {
		m, _ := filepath.Glob(g)
		seeds = append(seeds, m...)
	}
	var table strings.Builder
	table.WriteString("| configuration | release | flags | test cases | oracle false alarms | rejected follow-ups | undecided protobuf-js |\n|---|---|---|---|---|---|---|\n")
	for _, p := range protoJSPacks {
		t.Run(p.dir, func(t *testing.T) {
			needProtoJS(t, p.dir, p.pkg)
			s, err := setup.Load(filepath.Join("protobuf", p.dir, "mcpt.yaml"), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			combos := s.Flags.Combinations()
			s.Close()
			for _, combo := range combos {
				flags := combo.String()
				s, err := setup.Load(filepath.Join("protobuf", p.dir, "mcpt.yaml"), setup.Options{SeedFiles: seeds, Flags: []string{flags}, Tools: &setup.Tools{CheckerKinds: protorel.Kinds, Parsers: tsParsers}})
				if err != nil {
					t.Fatal(err)
				}
				opt := s.EngineOptions()
				opt.Seed, opt.MaxCases, opt.MaxTime, opt.Workers, opt.ConfirmRuns, opt.OutDir = 1, cases, 0, 2, 1, ""
				c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
				rep, err := c.Run(context.Background())
				s.Close()
				if err != nil {
					t.Fatal(err)
				}
				alarms, rejected := 0, 0
				for _, f := range rep.Findings {
					if f.Kind == result.RejectedFollowUp {
						rejected++
						continue
					}
					alarms++
					t.Logf("%s under %s: %s %s on %s (%s): %s", p.dir, flags, f.Relation, f.Checker, filepath.Base(f.SeedFile), f.Spot.Desc, f.Message)
				}
				undecided := 0
				for _, r := range rep.ByRelation {
					undecided += r.Checkers["protobuf-js"].Undecided
				}
				fmt.Fprintf(&table, "| %s | %s | %s | %d | %d | %d (%.1f %%) | %d |\n", p.dir, rep.Release, flags, rep.TestCases, alarms, rejected,
					100*float64(rejected)/float64(max(rep.TestCases, 1)), undecided)
				left := slices.Concat(rep.Seeds.Rejected, rep.Seeds.Crashed, rep.Seeds.Nondeterministic)
				if len(left) > 0 {
					t.Logf("%s under %s: seeds left out: %v", p.dir, flags, left)
				}
			}
		})
	}
	t.Logf("the JavaScript configurations on the seeds and the corpus:\n%s", table.String())
}
