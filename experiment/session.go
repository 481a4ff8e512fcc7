package experiment

import (
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// inputKey identifies a follow-up input by its name and content. The engine
// tells nobody which test case a transpiler run belongs to, so the runs
// and the findings of a session are matched through the input they share.
type inputKey [sha256.Size]byte

func keyOf(name string, src []byte) inputKey {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(src)
	var k inputKey
	copy(k[:], h.Sum(nil))
	return k
}

// followUpRun is what one follow-up run of a session did to the fault
// ledger and how it ended.
type followUpRun struct {
	fault  int // faultinject.NoFault when it activated none
	status transpiler.Status
}

// recorder is a transpiler decorator around a faultinject.Session: it
// passes every run on and remembers, for each follow-up input, the fault
// each of its runs activated and the run's status. It also wraps the
// relations of the campaign, to learn which relation produced each
// follow-up input.
type recorder struct {
	session *faultinject.Session

	mu        sync.Mutex
	runs      map[inputKey][]followUpRun
	relations map[inputKey][]string // the relations that produced the input
}

func newRecorder(s *faultinject.Session) *recorder {
	return &recorder{session: s, runs: map[inputKey][]followUpRun{}, relations: map[inputKey][]string{}}
}

// Transpile runs req through the session, recording follow-up runs.
func (r *recorder) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	if req.Role != transpiler.FollowUp {
		return r.session.Transpile(ctx, req)
	}
	res, fault, err := r.session.TranspileFault(ctx, req)
	if err != nil {
		return res, err
	}
	k := keyOf(req.Name, req.Src)
	r.mu.Lock()
	r.runs[k] = append(r.runs[k], followUpRun{fault: fault, status: res.Status})
	r.mu.Unlock()
	return res, nil
}

// wrap returns a copy of rel whose mutations are recorded.
func (r *recorder) wrap(rel *relation.Relation) *relation.Relation {
	w := *rel
	mutate := rel.Mutate
	w.Mutate = func(in relation.Input, spot relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		fu, err := mutate(in, spot, rng)
		if err == nil && fu != nil {
			k := keyOf(in.Name, fu.Src)
			r.mu.Lock()
			if !slices.Contains(r.relations[k], rel.Name) {
				r.relations[k] = append(r.relations[k], rel.Name)
			}
			r.mu.Unlock()
		}
		return fu, err
	}
	return &w
}

// runsOf returns the recorded runs of a follow-up input.
func (r *recorder) runsOf(k inputKey) []followUpRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]followUpRun(nil), r.runs[k]...)
}

// outcomes lists the faults whose follow-up run crashed or hung, those
// whose follow-up run was rejected, and, per relation, the faults that its
// follow-up runs activated.
func (r *recorder) outcomes() (crashed, rejected []int, byRelation map[string][]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, rj := map[int]bool{}, map[int]bool{}
	rel := map[string]map[int]bool{}
	for k, runs := range r.runs {
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
			for _, name := range r.relations[k] {
				if rel[name] == nil {
					rel[name] = map[int]bool{}
				}
				rel[name][run.fault] = true
			}
		}
	}
	byRelation = map[string][]int{}
	for name, set := range rel {
		byRelation[name] = sortedSet(set)
	}
	return sortedSet(c), sortedSet(rj), byRelation
}
