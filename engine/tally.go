package engine

import "github.com/mcpt-tool/mcpt/result"

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
	perCase                    map[[2]string]int // index into summaries, by seed and relation
	summaries                  []result.CaseSummary
	findings                   []result.Finding
}

func (t *tally) add(cr *CaseResult) {
	if t.byRelation == nil {
		t.byRelation = map[string]result.RelationStats{}
		t.perCase = map[[2]string]int{}
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
	t.byRelation[cr.Relation] = st
	t.findings = append(t.findings, cr.Findings...)
	k := [2]string{cr.Seed, cr.Relation}
	i, ok := t.perCase[k]
	if !ok {
		i = len(t.summaries)
		t.perCase[k] = i
		t.summaries = append(t.summaries, result.CaseSummary{Seed: cr.Seed, Relation: cr.Relation})
	}
	t.summaries[i].TestCases++
	t.summaries[i].Findings += len(cr.Findings)
}
