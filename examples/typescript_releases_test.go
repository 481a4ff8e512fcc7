package examples_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bench/realbugs"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
)

// tsReleases are the releases of tsc the TypeScript pack is measured on
// (TestTypeScriptReleases), from 3.5 (2019) to 5.9: the first the pack
// supports, the last before ES2022 and NodeNext, the first with each, the
// last 4.x, one of 5.x and the newest.
var tsReleases = []string{"3.5.3", "3.9.7", "4.5.5", "4.7.4", "4.9.5", "5.4.5", "5.9.3"}

// tsCasesPerCombination is the budget of TestTypeScriptReleases per
// combination of flags; -ts-cases lowers it for a quicker look.
var tsCasesPerCombination = flag.Int("ts-cases", 300, "test cases per combination of flags in TestTypeScriptReleases")

// tsCorpus says whether TestTypeScriptReleases takes the corpus among its
// seeds: each seed is transpiled once per combination (54 on a recent
// release) before the first test case, and the corpus has 43 files.
var tsCorpus = flag.Bool("ts-corpus", true, "TestTypeScriptReleases runs on the TypeScript corpus too")

// tsRelations keeps the relations of TestTypeScriptReleases whose name it
// matches (a regular expression, anchored), so that a new relation is
// measured on its own budget: -ts-relations 'add-private-member|add-abstract-member'.
var tsRelations = flag.String("ts-relations", "", "TestTypeScriptReleases runs the relations whose name this regular expression matches (all when empty)")

// TestTypeScriptReleases (MCPT_TEST_REALBUGS=1, the tier that installs
// releases): releases.yaml, the relations of the pack under the whole
// matrix of flags it supports (target, module, useDefineForClassFields,
// strict: the values a release lacks left out by the pack's supports), on
// each release of tsReleases installed by version into the cache of the
// benchmark of real bugs ($MCPT_REALBUGS_CACHE) and loaded by
// tsc-worker.js through MCPT_TYPESCRIPT, on the pack's seeds (scripts/ too) and the
// TypeScript corpus (-ts-corpus=false: the pack's seeds alone), the
// relations -ts-relations matches (all by default), -ts-cases (300) test cases per combination with 2
// workers and seed 1: no oracle finding that no known bug of the release
// explains (bench/realbugs/known.yaml; any other is a false alarm), at most 1 % rejected follow-ups, a test case under
// every combination. A subtest per release: -run
// 'TestTypeScriptReleases/4.7.4'; -v shows the table.
func TestTypeScriptReleases(t *testing.T) {
	if !testtier.On(testtier.RealBugsVar) {
		t.Skipf("installs releases of tsc and runs 300 test cases per combination of flags on each; %s=1 runs it", testtier.RealBugsVar)
	}
	needTsc(t)
	dir, err := realbugs.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	cache := &realbugs.Cache{Dir: dir, Log: t.Logf}
	var seeds []string
	globs := []string{"typescript/*.ts", "typescript/more/*.ts", "typescript/scripts/*.ts", "../testdata/corpus/typescript/*.ts"}
	if !*tsCorpus {
		globs = globs[:3]
	}
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil || len(m) == 0 {
			t.Fatalf("no seeds %s: %v", g, err)
		}
		seeds = append(seeds, m...)
	}
	known, err := realbugs.LoadKnown(filepath.Join("..", "bench", "realbugs", realbugs.KnownFile))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, v := range tsReleases {
		t.Run(v, func(t *testing.T) {
			bin, err := cache.Install(context.Background(), realbugs.Package{Registry: "npm", Name: "typescript"}, v)
			if err != nil {
				t.Fatal(err)
			}
			pkg := filepath.Join(filepath.Dir(bin), "typescript")
			rep, combos := tsReleaseCampaign(t, pkg, seeds, *tsCasesPerCombination)
			if rep.Release != v {
				t.Fatalf("tsc-worker.js loaded TypeScript %s, want %s", rep.Release, v)
			}
			oracle, rejected := 0, 0
			byKnown := map[string]int{}
			for _, f := range rep.Findings {
				if k := realbugs.Explain(known, "tsc", v, &f); k != nil {
					byKnown[k.Name()]++
					continue
				}
				switch f.Kind {
				case result.RejectedFollowUp:
					rejected++
				case result.Oracle:
					oracle++
					t.Errorf("tsc %s under %s: %s %s on %s: %s\n%s", v, f.Flags, f.Relation, f.Checker, filepath.Base(f.SeedFile), f.Message, f.Diff)
				default:
					t.Errorf("tsc %s under %s: %s of %s on %s: %s", v, f.Flags, f.Kind, f.Relation, filepath.Base(f.SeedFile), f.Message)
				}
			}
			under := map[string]int{}
			for _, cs := range rep.Cases {
				under[cs.Flags] += cs.TestCases
			}
			least := -1
			for _, f := range rep.Flags {
				if least < 0 || under[f] < least {
					least = under[f]
				}
				if under[f] == 0 {
					t.Errorf("tsc %s: no test case under %s", v, f)
				}
			}
			// what each relation made, in all and under the combination
			// where it made fewest (a relation without spots under a
			// combination, such as one that needs CommonJS, makes none there)
			byRel := map[string]map[string]int{}
			for _, cs := range rep.Cases {
				if byRel[cs.Relation] == nil {
					byRel[cs.Relation] = map[string]int{}
				}
				byRel[cs.Relation][cs.Flags] += cs.TestCases
			}
			for _, r := range slices.Sorted(maps.Keys(byRel)) {
				total, fewest, with := 0, -1, 0
				for _, n := range byRel[r] {
					total += n
					with++
					if fewest < 0 || n < fewest {
						fewest = n
					}
				}
				t.Logf("tsc %s: %s: %d test cases under %d of %d combinations, at least %d under each of them", v, r, total, with, combos, fewest)
			}
			if want := combos * *tsCasesPerCombination; rep.TestCases < want || rejected*100 > rep.TestCases {
				t.Errorf("tsc %s: %d test cases, %d rejected follow-ups (%d wanted, at most 1 %% rejected)", v, rep.TestCases, rejected, want)
			}
			var kb []string
			for _, k := range slices.Sorted(maps.Keys(byKnown)) {
				kb = append(kb, fmt.Sprintf("%d: %s", byKnown[k], strings.ReplaceAll(k, "|", "\\|")))
			}
			if len(kb) == 0 {
				kb = []string{"-"}
			}
			row := fmt.Sprintf("| %s | %d | %d | %d | %d | %d | %s |", v, combos, rep.TestCases, least, oracle, rejected, strings.Join(kb, "; "))
			t.Log(row)
			rows = append(rows, row)
		})
	}
	t.Logf("\n| tsc | combinations | test cases | fewest under one combination | false alarms | rejected follow-ups | findings of known bugs of the release |\n|---|---|---|---|---|---|---|\n%s", strings.Join(rows, "\n"))
}

// tsReleaseCampaign runs releases.yaml with tsc-worker.js loading the
// TypeScript package pkg, perCombination test cases per combination of
// flags the release has, and returns the report and the number of
// combinations.
func tsReleaseCampaign(t *testing.T, pkg string, seeds []string, perCombination int) (*result.Report, int) {
	t.Helper()
	edit := func(c *config.Config) error {
		sp := &c.Transpiler.Spec
		sp.Env = slices.DeleteFunc(slices.Clone(sp.Env), func(e string) bool { return strings.HasPrefix(e, realbugs.TypeScriptVar+"=") })
		sp.Env = append(sp.Env, realbugs.TypeScriptVar+"="+pkg)
		return nil
	}
	s, err := setup.Load(filepath.Join(tsDir, "releases.yaml"), setup.Options{SeedFiles: seeds, Edit: edit, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if *tsRelations != "" {
		re, err := regexp.Compile("^(?:" + *tsRelations + ")$")
		if err != nil {
			t.Fatalf("-ts-relations: %v", err)
		}
		s.Relations = slices.DeleteFunc(s.Relations, func(r *relation.Relation) bool { return !re.MatchString(r.Name) })
		if len(s.Relations) == 0 {
			t.Fatalf("-ts-relations %q matches no relation of releases.yaml", *tsRelations)
		}
	}
	opt := s.EngineOptions()
	combos := max(opt.Flags.Size(), 1)
	// One relation and one spot per visit of a (seed, combination) pair,
	// so that the budget spreads over the pairs: a combination's test
	// cases are as many visits of its seeds.
	opt.Seed, opt.Workers, opt.MaxCases, opt.MaxMR, opt.MaxSpots, opt.MaxTime, opt.OutDir = 1, 2, combos*perCombination, 1, 1, 0, ""
	// Every finding keeps its evidence (none is only counted in its
	// group), for the diffs that tell a known bug's findings.
	opt.BundlesPerGroup = math.MaxInt32
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Release == "" {
		rep.Release = s.Release
	}
	return rep, combos
}

// TestTypeScriptReleaseSupport: releases.yaml on a release out of the
// pack's range, or with a flag value the release does not have, stops at
// start with one line naming the pack's supports; a release that lacks
// some values runs the others. The worker loads a stand-in TypeScript
// package that only tells its release.
func TestTypeScriptReleaseSupport(t *testing.T) {
	needTsc(t)
	fake := func(v string) string {
		dir := t.TempDir()
		pkg := filepath.Join(dir, "node_modules", "typescript")
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{
			"package.json": `{"name": "typescript", "version": "` + v + `"}`,
			"index.js":     `exports.version = "` + v + `";`,
		} {
			if err := os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	load := func(v string, flags ...string) (*setup.Setup, error) {
		t.Setenv(realbugs.TypeScriptVar, fake(v))
		return setup.Load(filepath.Join(tsDir, "releases.yaml"), setup.Options{Flags: flags, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	}
	for _, c := range []struct {
		release string
		flags   []string
		want    string
	}{
		{"6.0.0", nil, "release 6.0.0 of the transpiler is not supported by the pack, which supports >=3.5.0 <6"},
		{"3.4.5", nil, "release 3.4.5 of the transpiler is not supported"},
		{"3.5.3", []string{"target=es2022"}, "release 3.5.3 of the transpiler takes no value of target the configuration gives: target=es2022 (the pack supports it for releases >=4.6.0"},
		{"4.6.4", []string{"module=nodenext"}, "takes no value of module the configuration gives: module=nodenext"},
	} {
		s, err := load(c.release, c.flags...)
		if err == nil {
			s.Close()
			t.Errorf("%s %v: loaded", c.release, c.flags)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s %v: %q, want one line with %q", c.release, c.flags, msg, c.want)
		}
	}
	// 3.6: ES2017 and ESNext, CommonJS and ESNext, useDefineForClassFields
	// not given, strict on and off
	s, err := load("3.6.4")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := s.EngineOptions().Flags.Size(); n != 8 || s.Release != "3.6.4" {
		t.Errorf("release %s: %d combinations, want 8 on 3.6.4", s.Release, n)
	}
}
