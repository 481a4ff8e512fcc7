package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/merge"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// checkGroups checks the findings of a report against the rule of
// bundles per group: in each group, the first k findings in case order
// have their evidence and (with bundles) a bundle; of the others, the one
// with the smallest follow-up is the candidate when it is smaller than
// all of the first k, and the rest are counted, without evidence or
// bundle. It returns how many were counted.
func checkGroups(t *testing.T, r *result.Report, k int, bundles bool) int {
	t.Helper()
	bySig := map[string][]*result.Finding{}
	for i := range r.Findings {
		f := &r.Findings[i]
		bySig[f.Signature] = append(bySig[f.Signature], f)
	}
	counted := 0
	for _, g := range r.Groups {
		fs := bySig[g.Signature]
		if g.Count != len(fs) {
			t.Errorf("group %s: count %d, %d findings", g.Title, g.Count, len(fs))
		}
		smallest, first := -1, -1
		var candidate *result.Finding
		nCounted := 0
		for n, f := range fs {
			evidence := f.Diff != "" || f.Expected != "" || f.Stderr != "" || f.Kind != result.Oracle
			switch {
			case n < k:
				if f.Counted || f.Candidate || !evidence || bundles != (f.Bundle != "") {
					t.Errorf("group %s: finding %d (%s) of the first %d: counted %v, candidate %v, evidence %v, bundle %q",
						g.Title, n, f.ID, k, f.Counted, f.Candidate, evidence, f.Bundle)
				}
				if first < 0 || f.FollowUpBytes < first {
					first = f.FollowUpBytes
				}
			case f.Candidate:
				if candidate != nil {
					t.Errorf("group %s: two candidates, %s and %s", g.Title, candidate.ID, f.ID)
				}
				candidate = f
				if !evidence || bundles != (f.Bundle != "") {
					t.Errorf("group %s: candidate %s: evidence %v, bundle %q", g.Title, f.ID, evidence, f.Bundle)
				}
			case f.Counted:
				nCounted++
				if f.Diff != "" || f.Expected != "" || f.Actual != "" || f.Bundle != "" || f.Bindings != nil {
					t.Errorf("group %s: counted finding %s keeps evidence or a bundle", g.Title, f.ID)
				}
			default:
				t.Errorf("group %s: finding %d (%s) after the first %d is neither counted nor the candidate", g.Title, n, f.ID, k)
			}
			if smallest < 0 || f.FollowUpBytes < smallest {
				smallest = f.FollowUpBytes
			}
		}
		switch {
		case candidate == nil && len(fs) > k && smallest < first:
			t.Errorf("group %s: no candidate, though a counted follow-up of %d bytes is smaller than the first findings' %d", g.Title, smallest, first)
		case candidate != nil && (candidate.FollowUpBytes != smallest || candidate.FollowUpBytes >= first):
			t.Errorf("group %s: candidate of %d bytes; the smallest follow-up has %d, the first findings' %d", g.Title, candidate.FollowUpBytes, smallest, first)
		case candidate != nil && g.Candidate != candidate.ID:
			t.Errorf("group %s: candidate %q, the finding marked is %s", g.Title, g.Candidate, candidate.ID)
		}
		if g.Counted != nCounted {
			t.Errorf("group %s: counted %d, %d findings counted", g.Title, g.Counted, nCounted)
		}
		counted += nCounted
	}
	return counted
}

// bundleDirs lists the bundle directories of an output directory.
func bundleDirs(t *testing.T, out string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "findings"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// bundled lists the bundles a report refers to, by their directory name.
func bundled(r *result.Report) []string {
	var names []string
	for _, f := range r.Findings {
		if f.Bundle != "" {
			names = append(names, filepath.Base(f.Bundle))
		}
	}
	slices.Sort(names)
	return names
}

// TestBundlesPerGroup: the first K findings of each group are confirmed
// (the first in full) and bundled, the later ones counted, one in 8 of
// them after one re-run of their follow-up, but for the group's candidate; the output directory holds
// the bundles the report refers to and no other, the candidates a
// smaller one replaced included.
func TestBundlesPerGroup(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	out := filepath.Join(t.TempDir(), "out")
	const k, confirm = 2, 3
	rep := run(t, s, engine.Options{Seed: 2, MaxCases: 500, BundlesPerGroup: k, ConfirmRuns: confirm, Exhaustive: true, Workers: 2, OutDir: out})
	counted := checkGroups(t, rep, k, true)
	if counted == 0 {
		t.Fatalf("no finding counted in %d findings: the test shows nothing", len(rep.Findings))
	}
	if got, want := bundleDirs(t, out), bundled(rep); !slices.Equal(got, want) {
		t.Errorf("bundles on disk %v, in the report %v", got, want)
	}
	if rep.BundlesPerGroup != k {
		t.Errorf("report: bundles_per_group %d", rep.BundlesPerGroup)
	}
	// A case with its group's first finding was run again confirm times,
	// and its base with it when no case of its seed ran that again
	// before; one with another of the first K findings of its
	// group, once; one with counted findings only, once when its case
	// seed picks it (one in DefaultConfirmCounted), and with
	// ConfirmCounted 1, every one once; with CountUnconfirmed, none.
	reruns := func(r *result.Report, every int) (want, firsts, picked int) {
		role := map[int]int{} // by case: 2 a group's first, 1 kept, 0 counted
		seen := map[string]bool{}
		caseSeed := map[int]uint64{}
		seedOf := map[int]string{}
		for _, f := range r.Findings {
			caseSeed[f.Case], seedOf[f.Case] = f.CaseSeed, f.SeedFile+" "+f.Flags
			switch {
			case !seen[f.Signature]:
				seen[f.Signature] = true
				role[f.Case] = 2
			case !f.Counted && !f.Candidate:
				role[f.Case] = max(role[f.Case], 1)
			}
		}
		baseRun := map[string]bool{}
		for _, c := range distinctCases(r) {
			switch {
			case role[c] == 2:
				want += confirm
				if !baseRun[seedOf[c]] {
					want += confirm // the seed's base, once
					baseRun[seedOf[c]] = true
				}
				firsts++
			case role[c] == 1:
				want++
			case engine.ConfirmsCounted(caseSeed[c], every):
				want++
				picked++
			}
		}
		return want, firsts, picked
	}
	want, firsts, picked := reruns(rep, engine.DefaultConfirmCounted)
	if rep.RecheckRuns != want {
		t.Errorf("%d re-runs, want %d (%d test cases with findings, %d with a group's first, %d others picked)", rep.RecheckRuns, want, len(distinctCases(rep)), firsts, picked)
	}
	if picked == 0 || picked == len(distinctCases(rep))-firsts {
		t.Errorf("%d test cases with counted findings only picked to be run again, of %d: not one in %d", picked, len(distinctCases(rep))-firsts, engine.DefaultConfirmCounted)
	}
	for _, every := range []int{1, 0} {
		opt := engine.Options{Seed: 2, MaxCases: 500, BundlesPerGroup: k, ConfirmRuns: confirm, Exhaustive: true, Workers: 2,
			ConfirmCounted: every, CountUnconfirmed: every == 0, OutDir: fmt.Sprintf("%s-%d", out, every)}
		other := run(t, s, opt)
		if a, b := flags(rep), flags(other); !slices.Equal(a, b) {
			t.Errorf("confirm_counted 1 in %d: the findings differ:\n%s", every, lineDiff(a, b))
		}
		if want, _, _ := reruns(other, every); other.RecheckRuns != want {
			t.Errorf("confirm_counted 1 in %d: %d re-runs, want %d", every, other.RecheckRuns, want)
		}
	}
	// Every finding has a bundle with a large K, as before groups.
	all := run(t, s, engine.Options{Seed: 2, MaxCases: 500, BundlesPerGroup: 100000, Exhaustive: true})
	if n := checkGroups(t, all, 100000, false); n != 0 || len(all.Findings) != len(rep.Findings) {
		t.Errorf("with K = 100000: %d counted of %d findings (%d with K = %d)", n, len(all.Findings), len(rep.Findings), k)
	}
}

func distinctCases(r *result.Report) []int {
	var cs []int
	for _, f := range r.Findings {
		cs = append(cs, f.Case)
	}
	slices.Sort(cs)
	return slices.Compact(cs)
}

// flags is what the rule of bundles per group makes of each finding.
func flags(r *result.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s %s counted=%v candidate=%v bundled=%v", f.ID, f.Signature, f.Counted, f.Candidate, f.Bundle != ""))
	}
	return out
}

// TestGroupsMergeToTheWhole: each shard bundles the first findings of
// each group among its own; the merged report keeps the bundles of the
// first K of the whole group and its candidate, as the unsharded run
// does, weights and all.
func TestGroupsMergeToTheWhole(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums", "sorted-resets"})
	opt := engine.Options{Seed: 5, MaxCases: 600}
	whole := run(t, s, opt)
	var parts []*result.Report
	var names []string
	for i := range 3 {
		o := opt
		o.Shard = engine.Shard{Index: i, Count: 3}
		parts = append(parts, run(t, s, o))
		names = append(names, fmt.Sprint("shard", i))
	}
	m, err := merge.Reports(names, parts)
	if err != nil {
		t.Fatal(err)
	}
	if checkGroups(t, whole, engine.DefaultBundlesPerGroup, false) == 0 {
		t.Fatal("nothing counted: the test shows nothing")
	}
	checkGroups(t, m, engine.DefaultBundlesPerGroup, false)
	if a, b := flags(whole), flags(m); !slices.Equal(a, b) {
		t.Errorf("merged shards differ from the whole run:\n%s", lineDiff(a, b))
	}
	if a, b := fmt.Sprint(groupCounts(whole)), fmt.Sprint(groupCounts(m)); a != b {
		t.Errorf("groups: whole %s, merged %s", a, b)
	}
}

func groupCounts(r *result.Report) []string {
	var out []string
	for _, g := range r.Groups {
		out = append(out, fmt.Sprintf("%s %d %d %s %d", g.Signature, g.Count, g.Counted, g.Candidate, g.Flaky))
	}
	return out
}

func lineDiff(a, b []string) string {
	var d []string
	for _, l := range a {
		if !slices.Contains(b, l) {
			d = append(d, "- "+l)
		}
	}
	for _, l := range b {
		if !slices.Contains(a, l) {
			d = append(d, "+ "+l)
		}
	}
	return strings.Join(d, "\n")
}

// TestGroupsResume: a campaign cut short and resumed ends with the
// bundles, counted findings and candidates of the uninterrupted run, and
// the bundles on disk are those the report refers to.
func TestGroupsResume(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	dir := t.TempDir()
	opt := engine.Options{Seed: 4, MaxCases: 300, BundlesPerGroup: 1, OutDir: filepath.Join(dir, "a")}
	full := run(t, s, opt)
	if checkGroups(t, full, 1, true) == 0 {
		t.Fatal("nothing counted")
	}
	journal := filepath.Join(opt.OutDir, engine.JournalName)
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for _, keep := range []int{len(lines) / 4, len(lines) / 2} {
		// A copy of the output, cut: the findings of the cut-off cases,
		// candidates replaced later included, are made again.
		opt2 := opt
		opt2.OutDir = filepath.Join(dir, fmt.Sprint("cut", keep))
		if err := os.CopyFS(opt2.OutDir, os.DirFS(opt.OutDir)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(opt2.OutDir, engine.JournalName), []byte(strings.Join(lines[:keep], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		opt2.Resume = true
		resumed := run(t, s, opt2)
		if a, b := flags(full), flags(resumed); !slices.Equal(a, b) {
			t.Errorf("journal cut at line %d: resumed run differs:\n%s", keep, lineDiff(a, b))
		}
		if got, want := bundleDirs(t, opt2.OutDir), bundled(resumed); !slices.Equal(got, want) {
			t.Errorf("journal cut at line %d: bundles on disk %v, in the report %v", keep, got, want)
		}
	}
}

// TestFlakyGroup: a faulty transpiler whose output also varies now and
// then: the failures that do not repeat are not findings, and the groups
// their first runs landed in say how many there were; the findings that
// repeat are grouped and bundled as usual.
func TestFlakyGroup(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	want := map[string]int{}
	c := &engine.Campaign{Transpiler: &everyNth{t: s.Transpiler, n: 7}, Relations: s.Relations, Seeds: s.Seeds,
		Options: engine.Options{Seed: 3, MaxCases: 600, Workers: 1, BaseRuns: 1, Exhaustive: true, OnCase: func(cr *engine.CaseResult) {
			for _, sig := range cr.Flaky {
				want[sig]++
			}
		}}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	flaky := 0
	for _, g := range rep.Groups {
		flaky += g.Flaky
		if g.Flaky != want[g.Signature] {
			t.Errorf("group %s: flaky %d, %d test cases of its signature did not repeat", g.Title, g.Flaky, want[g.Signature])
		}
	}
	if flaky == 0 || rep.NondeterministicCases == 0 {
		t.Errorf("%d flaky test cases in the groups, %d nondeterministic test cases: the test shows nothing", flaky, rep.NondeterministicCases)
	}
	checkGroups(t, rep, engine.DefaultBundlesPerGroup, false)
}

// everyNth changes one output file of every nth accepted run of the
// follow-up whose output differs from the base's already.
type everyNth struct {
	t transpiler.Transpiler
	n int
	k int
}

func (e *everyNth) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	res, err := e.t.Transpile(ctx, req)
	if err != nil || res.Status != transpiler.Accepted || req.Role != transpiler.FollowUp {
		return res, err
	}
	e.k++
	if e.k%e.n != 0 {
		return res, nil
	}
	out := *res
	out.Files = map[string][]byte{}
	for name, b := range res.Files {
		out.Files[name] = b
	}
	name := res.Files.Names()[0]
	out.Files[name] = append(append([]byte(nil), res.Files[name]...), "/* now and then */\n"...)
	return &out, nil
}

// plan runs a campaign on cfg and returns its test cases in plan order:
// index, seed, relation and spot.
func plan(t *testing.T, cfg string, faults []string, opt engine.Options) (cases []string, rep *result.Report) {
	t.Helper()
	s := load(t, cfg, faults)
	opt.OnCase = func(cr *engine.CaseResult) {
		cases = append(cases, fmt.Sprintf("%d %s %s %d", cr.Index, cr.Seed, cr.Relation, cr.Spot.Index))
	}
	rep = run(t, s, opt)
	return cases, rep
}

// TestWeights: without weights the plan does not depend on what the
// transpiler does; with them, a correct transpiler gets that plan too,
// and a faulty one a plan that tries every spot the plan without weights
// tries, spends fewer test cases on the failures it found already, finds
// as many groups, and does not depend on the number of workers. The demo
// has one seed, visited every 50 test cases or so: the weights act from
// its second visit on.
func TestWeights(t *testing.T) {
	none, faults := []string{}, []string{"reverse-enums", "sorted-resets"}
	opt := engine.Options{Seed: 6, MaxCases: 400, Workers: 2}
	ex := opt
	ex.Exhaustive = true
	correctEx, correctRep := plan(t, "demo.yaml", none, ex)
	faultyEx, faultyExRep := plan(t, "demo.yaml", faults, ex)
	correct, _ := plan(t, "demo.yaml", none, opt)
	faulty, faultyRep := plan(t, "demo.yaml", faults, opt)
	if len(correctRep.Findings) > 0 {
		t.Fatalf("%d findings of the correct transpiler", len(correctRep.Findings))
	}
	if !slices.Equal(correctEx, faultyEx) {
		t.Error("without weights, the faulty transpiler's plan is not the correct one's")
	}
	if !slices.Equal(correct, correctEx) {
		t.Error("with weights, the correct transpiler's plan is not the plan without weights")
	}
	if slices.Equal(faulty, faultyEx) {
		t.Fatal("with weights, the faulty transpiler's plan is the plan without weights: the weights did nothing")
	}
	spot := func(c string) string { _, rest, _ := strings.Cut(c, " "); return rest }
	tried := map[string]bool{}
	for _, c := range faulty {
		tried[spot(c)] = true
	}
	for _, c := range faultyEx {
		if !tried[spot(c)] {
			t.Errorf("the plan without weights tries %s, the weighted plan never", spot(c))
			break
		}
	}
	cases := func(r *result.Report) int { return len(distinctCases(r)) }
	if w, e := cases(faultyRep), cases(faultyExRep); w >= e*3/4 {
		t.Errorf("%d test cases with findings with weights, %d without", w, e)
	}
	if w, e := len(faultyRep.Groups), len(faultyExRep.Groups); w < e {
		t.Errorf("%d groups with weights, %d without", w, e)
	}
	one := opt
	one.Workers = 1
	if faulty1, _ := plan(t, "demo.yaml", faults, one); !slices.Equal(faulty1, faulty) {
		t.Error("the weighted plan differs between 1 and 2 workers")
	}
}

// TestFindingsOnDiskBeforeShown: a case with findings reaches OnCase (what
// mcpt prints) only once its journal record is in the journal file, the
// records of cases finished together being synced at once; every case
// reaches it, in plan order.
func TestFindingsOnDiskBeforeShown(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	out := filepath.Join(t.TempDir(), "out")
	next, withFindings := 0, 0
	opt := engine.Options{Seed: 3, MaxCases: 300, Workers: 2, OutDir: out, OnCase: func(cr *engine.CaseResult) {
		if cr.Index != next {
			t.Errorf("OnCase got case %d, want %d", cr.Index, next)
		}
		next = cr.Index + 1
		if len(cr.Findings) == 0 {
			return
		}
		withFindings++
		b, err := os.ReadFile(filepath.Join(out, engine.JournalName))
		if err != nil || !strings.Contains(string(b), fmt.Sprintf(`{"case":%d,`, cr.Index)) {
			t.Errorf("case %d with findings shown before its journal record is in the file (%v)", cr.Index, err)
		}
	}}
	rep := run(t, s, opt)
	if withFindings == 0 || next != rep.TestCases {
		t.Errorf("%d cases with findings shown, %d cases shown of %d: the test shows nothing", withFindings, next, rep.TestCases)
	}
}
