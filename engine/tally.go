package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// tally is what the report needs of the test cases, added up as they finish
// in plan order: counts and times, per relation and per seed × relation,
// and the findings. Nothing else of a case is kept, so that memory does not
// grow with the number of test cases (the journal has them all).
type tally struct {
	cases, runs int
	// rechecks and nondeterministic count the second looks at failures
	// and the cases whose failure did not repeat (see Tester.Run).
	rechecks, nondeterministic int
	timing                     result.Timing
	byRelation                 map[string]result.RelationStats
	perCase                    map[[3]string]int // index into summaries, by seed, flags and relation
	summaries                  []result.CaseSummary
	// findings are all the findings, in plan order; the counted ones
	// without their evidence.
	findings []result.Finding
	// groups is what the candidates need of each group, by signature.
	groups map[string]*tallyGroup
	// flaky counts, by signature, the cases whose re-runs disagreed.
	flaky map[string]int
}

// tallyGroup is what the tally keeps of a group of findings.
type tallyGroup struct {
	// smallest is the size of the smallest follow-up of the group's
	// findings that have their evidence (kept, and the candidate); -1
	// before the first.
	smallest int
	// candidate is the index in findings of the group's candidate; -1
	// for none.
	candidate int
}

func (t *tally) group(sig string) *tallyGroup {
	if t.groups == nil {
		t.groups = map[string]*tallyGroup{}
	}
	g := t.groups[sig]
	if g == nil {
		g = &tallyGroup{smallest: -1, candidate: -1}
		t.groups[sig] = g
	}
	return g
}

// smaller tells whether a follow-up of size n is smaller than every one
// of the group's findings with evidence.
func (g *tallyGroup) smaller(n int) bool { return g.smallest < 0 || n < g.smallest }

// add adds up a finished case, whose counted findings are stripped and
// whose candidate, if it has one, is marked (see runner.counted), and
// returns the IDs of the candidates it replaces: counted from now on,
// their bundles are to go.
func (t *tally) add(cr *CaseResult) (replaced []string) {
	if t.byRelation == nil {
		t.byRelation = map[string]result.RelationStats{}
		t.perCase = map[[3]string]int{}
	}
	t.cases++
	t.runs += cr.Runs
	t.rechecks += cr.Rechecks
	if cr.Skip == SkipFollowUpNondeterministic {
		t.nondeterministic++
	}
	t.timing.MutationNS += cr.MutationNS
	t.timing.TranspileNS += cr.TranspileNS
	t.timing.CheckNS += cr.CheckNS
	st := t.byRelation[cr.Relation]
	st.TestCases++
	st.Findings += len(cr.Findings)
	st.Add(cr.Checks)
	t.byRelation[cr.Relation] = st
	for _, f := range cr.Findings {
		g := t.group(f.Signature)
		switch {
		case f.Candidate:
			if g.candidate >= 0 {
				replaced = append(replaced, t.findings[g.candidate].ID)
				t.findings[g.candidate].Strip()
			}
			g.candidate, g.smallest = len(t.findings), f.FollowUpBytes
		case !f.Counted && g.smaller(f.FollowUpBytes):
			g.smallest = f.FollowUpBytes
		}
		t.findings = append(t.findings, f)
	}
	for _, sig := range cr.Flaky {
		if t.flaky == nil {
			t.flaky = map[string]int{}
		}
		t.flaky[sig]++
	}
	k := [3]string{cr.Seed, cr.Flags, cr.Relation}
	i, ok := t.perCase[k]
	if !ok {
		i = len(t.summaries)
		t.perCase[k] = i
		t.summaries = append(t.summaries, result.CaseSummary{Seed: cr.Seed, Flags: cr.Flags, Relation: cr.Relation})
	}
	t.summaries[i].TestCases++
	t.summaries[i].Findings += len(cr.Findings)
	return replaced
}

// ErrNothingChecked is the error of a campaign that could not check
// anything: every seed it owns was skipped (rejected, nondeterministic, or
// its base run crashed or timed out).
var ErrNothingChecked = errors.New("the campaign checked nothing")

// nothingChecked returns ErrNothingChecked, saying why, when every seed of
// the shard was skipped (under every combination of flags).
func nothingChecked(rep *result.Report) error {
	s := rep.Seeds
	skipped := len(s.Rejected) + len(s.Nondeterministic) + len(s.Crashed)
	if rep.TestCases > 0 || s.Total == 0 || skipped < s.Total {
		return nil
	}
	what := "seeds"
	if len(rep.Flags) > 1 {
		what = "seeds under a combination of flags"
	}
	return fmt.Errorf("%w: all %d %s were skipped (%d rejected by the transpiler, %d nondeterministic, %d crashed or timed out in the base run)",
		ErrNothingChecked, s.Total, what, len(s.Rejected), len(s.Nondeterministic), len(s.Crashed))
}

// noSpot returns ErrNothingChecked, saying so per relation, when no
// relation has a spot in any admitted seed of the shard: a campaign whose
// plan is empty, as a typo in a region's pattern makes it.
func (r *runner) noSpot() error {
	if r.spotsOf == nil {
		return nil
	}
	admitted := 0
	for ai, p := range r.admitted {
		if !r.opt.Shard.owns(p) {
			continue
		}
		admitted++
		for ri := range r.c.Relations {
			if s, err := r.spotsOf(ai, ri); err != nil || len(s) > 0 {
				return nil
			}
		}
	}
	if admitted == 0 {
		return nil
	}
	var b strings.Builder
	what := plural(admitted, "seed", "seeds")
	if len(r.combos) > 1 {
		what += plural(admitted, " under a combination of flags", " under combinations of flags")
	}
	fmt.Fprintf(&b, "%v: no relation has a spot in the %d %s admitted", ErrNothingChecked, admitted, what)
	for _, rel := range r.c.Relations {
		fmt.Fprintf(&b, "\n  relation %s: no spot in any seed", rel.Name)
	}
	b.WriteString("\n(mcpt spots RELATION FILE shows the spots of a relation in a seed)")
	return &noSpotError{msg: b.String()}
}

// noSpotError is ErrNothingChecked with the relations that have no spot.
type noSpotError struct{ msg string }

func (e *noSpotError) Error() string { return e.msg }
func (e *noSpotError) Unwrap() error { return ErrNothingChecked }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// finished adds up a finished case, of this session or of the journal
// being resumed, and hands it to OnCase (see addUp and announce).
func (r *runner) finished(cr *CaseResult) { r.announce(cr, r.addUp(cr)) }

// addUp adds up a finished case and returns the IDs of the candidates it
// replaces (see tally.add).
func (r *runner) addUp(cr *CaseResult) (replaced []string) {
	if cr.Skip == SkipRelationFailed {
		// No test case: the seed's error for the relation.
		r.skips.add(cr.Seed, cr.Flags, cr.Relation, 1, cr.Error)
	} else {
		replaced = r.tally.add(cr)
	}
	r.noteOutcome(cr)
	return replaced
}

// announce hands a case added up to OnCase, once its journal record is
// on disk, and removes the bundles of the candidates it replaced, on
// resume too (a kill may have come between the journal and the
// removal); one that cannot be removed stays, and nothing refers to it.
func (r *runner) announce(cr *CaseResult, replaced []string) {
	for _, id := range replaced {
		_ = r.removeBundle(id)
	}
	if r.opt.OnCase != nil {
		r.opt.OnCase(cr)
	}
}

// replayed adds up a case of the journal being resumed.
func (r *runner) replayed(cr *CaseResult) {
	r.book.replay(cr)
	if cr.BaseRechecked {
		r.baseRechecked[pairKey(cr.Seed, cr.Flags)] = true
	}
	r.finished(cr)
}

// counted ends the findings of a case that were not kept: each is
// stripped of its evidence, or, when its follow-up is smaller than every
// one of its group with evidence, becomes the group's candidate, with a
// bundle.
func (r *runner) counted(cr *CaseResult) error {
	w := cr.work
	if w == nil {
		return nil
	}
	smallest := map[string]int{}
	for i := range cr.Findings {
		f := &cr.Findings[i]
		if w.keep[i] {
			continue
		}
		min, ok := smallest[f.Signature]
		if !ok {
			min = r.tally.group(f.Signature).smallest
		}
		if min >= 0 && f.FollowUpBytes >= min {
			f.Strip()
			continue
		}
		smallest[f.Signature] = f.FollowUpBytes
		f.Candidate = true
		if err := r.bundle(f, w.seed, w.out.FollowUp.Src, w.base.res, w.out.Result); err != nil {
			return err
		}
	}
	return nil
}

// report makes the report of the cases added up and of the seeds' bases.
func (r *runner) report() *result.Report {
	t := &r.tally
	rep := &result.Report{
		Tool: "mcpt", Mode: string(r.opt.Mode), Seed: r.opt.Seed, Config: r.opt.Config,
		Shard: r.opt.Shard.String(), ByRelation: map[string]result.RelationStats{},
		TestCases: t.cases, TranspilerRuns: t.runs, Timing: t.timing, Cases: t.summaries,
		RecheckRuns: t.rechecks, NondeterministicCases: t.nondeterministic,
		Campaign: campaignID(r.c.fingerprint(r.opt)), MaxCases: r.opt.MaxCases,
		BundlesPerGroup: bundlesPerGroup(r.opt),
		Release:         r.opt.Release,
	}
	if len(r.opt.Flags) > 0 {
		for _, c := range r.combos {
			rep.Flags = append(rep.Flags, c.String())
		}
	}
	for _, rel := range r.c.Relations {
		rep.ByRelation[rel.Name] = t.byRelation[rel.Name]
	}
	skipped := map[string][]string{}
	for i := range r.pairs {
		if !r.opt.Shard.owns(i) {
			continue
		}
		rep.Seeds.Total++
		b := r.bases[i]
		rep.TranspilerRuns += int(b.runs.Load())
		rep.RecheckRuns += int(b.rechecks.Load())
		if b.skip != "" {
			skipped[b.skip] = append(skipped[b.skip], r.pairName(i))
		}
	}
	rep.Findings = append(slices.Clone(r.baseFindings), t.findings...)
	if rep.Findings == nil {
		rep.Findings = []result.Finding{}
	}
	if w, ok := r.c.Transpiler.(interface{ WorkerStats() transpiler.WorkerStats }); ok {
		st := w.WorkerStats()
		rep.WorkerRestarts, rep.WorkerStaleResponses = int(st.Restarts), int(st.StaleResponses)
	}
	rep.Seeds.Rejected = skipped[SkipRejected]
	rep.Seeds.Nondeterministic = skipped[SkipNondeterministic]
	rep.Seeds.Crashed = skipped[SkipCrashed]
	rep.Seeds.Skipped = r.skips.list()
	rep.Sort()
	rep.Groups = signature.Group(rep.Findings)
	signature.MarkFlaky(rep.Groups, t.flaky)
	rep.OrderGroupFlags()
	return rep
}
