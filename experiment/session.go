package experiment

import (
	"context"
	"sync"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// followUpRun is what one follow-up run of a session did to the fault
// ledger and how it ended.
type followUpRun struct {
	relation string
	fault    int // faultinject.NoFault when it activated none
	status   transpiler.Status
}

// recorder is a transpiler decorator around a faultinject.Session: it
// passes every run on and remembers, for each test case, the fault each of
// its follow-up runs activated, the run's status and the case's relation
// (the engine tells each run its test case, see engine.CaseOf).
type recorder struct {
	session *faultinject.Session

	mu   sync.Mutex
	runs map[int][]followUpRun // by test case
}

func newRecorder(s *faultinject.Session) *recorder {
	return &recorder{session: s, runs: map[int][]followUpRun{}}
}

// Transpile runs req through the session, recording follow-up runs.
func (r *recorder) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	c, ok := engine.CaseOf(ctx)
	if req.Role != transpiler.FollowUp || !ok {
		return r.session.Transpile(ctx, req)
	}
	res, fault, err := r.session.TranspileFault(ctx, req)
	if err != nil {
		return res, err
	}
	r.mu.Lock()
	r.runs[c.Index] = append(r.runs[c.Index], followUpRun{relation: c.Relation, fault: fault, status: res.Status})
	r.mu.Unlock()
	return res, nil
}

// runsOf returns the recorded follow-up runs of a test case.
func (r *recorder) runsOf(index int) []followUpRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]followUpRun(nil), r.runs[index]...)
}

// outcomes lists the faults whose follow-up run crashed or hung, those
// whose follow-up run was rejected, and, per relation, the faults that its
// follow-up runs activated.
func (r *recorder) outcomes() (crashed, rejected []int, byRelation map[string][]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, rj := map[int]bool{}, map[int]bool{}
	rel := map[string]map[int]bool{}
	for _, runs := range r.runs {
		for _, run := range runs {
			if run.fault == faultinject.NoFault {
				continue
			}
			switch run.status {
			case transpiler.Crashed, transpiler.TimedOut:
				c[run.fault] = true
			case transpiler.Rejected:
				rj[run.fault] = true
			}
			if rel[run.relation] == nil {
				rel[run.relation] = map[int]bool{}
			}
			rel[run.relation][run.fault] = true
		}
	}
	byRelation = map[string][]int{}
	for name, set := range rel {
		byRelation[name] = sortedSet(set)
	}
	return sortedSet(c), sortedSet(rj), byRelation
}
