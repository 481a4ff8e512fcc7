package engine

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/result"
)

// SkipRelationFailed is the skip reason of a test case whose relation
// could not derive its follow-up from the seed (a template that fails on
// it): an input error of that seed for that relation, recorded with its
// message, not a failure of the campaign.
const SkipRelationFailed = "relation failed"

// ErrNoSeedLeft is the error of a campaign in which every relation failed
// on every seed it could work on: the seeds' errors are listed, and no test
// case ran.
var ErrNoSeedLeft = errors.New("no seed left")

// maxSkipMessage bounds the message kept of one seed's error, so that the
// report stays small whatever a relation's error quotes of a seed.
const maxSkipMessage = 2048

// seedSkips records, for each seed and relation, the first error met on
// the seed: at its spots (the planner's, in plan order) or when a follow-up
// was derived (a test case that failed, added up in plan order), so that
// the record is the same whatever the number of workers.
type seedSkips struct {
	mu sync.Mutex
	m  map[skipKey]*result.SeedSkip
}

type skipKey struct{ seed, flags, relation string }

// add records msg for seed, under the combination of flags, and
// relation, unless one is recorded already; cases counts the test cases
// skipped.
func (s *seedSkips) add(seed, flags, relation string, cases int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[skipKey]*result.SeedSkip{}
	}
	k := skipKey{seed, flags, relation}
	if sk := s.m[k]; sk != nil {
		sk.Cases += cases
		return
	}
	s.m[k] = &result.SeedSkip{Seed: seed, Flags: flags, Relations: []string{relation}, Cases: cases, Message: skipMessage(msg)}
}

// list returns the skips, one entry per seed, combination and message.
func (s *seedSkips) list() []result.SeedSkip {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []result.SeedSkip
	for _, sk := range s.m {
		out = append(out, *sk)
	}
	return result.SortSkips(out)
}

// skipMessage is msg on one line, escaped and bounded.
func skipMessage(msg string) string {
	msg = printable.Line(msg)
	if len(msg) > maxSkipMessage {
		cut := maxSkipMessage
		for cut > 0 && !isRuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + fmt.Sprintf("… (%d bytes cut)", len(msg)-cut)
	}
	return msg
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// mutationMessage is what a case skipped for a MutationError records: the
// spot in the seed, file:line:col, then the relation's error.
func mutationMessage(seed string, cs Case, err error) string {
	var me *MutationError
	if errors.As(err, &me) {
		err = me.Err
	}
	where := fmt.Sprintf("%s:%d:%d", path.Base(seed), cs.Spot.Line, cs.Spot.Col)
	if cs.Spot.Desc != "" {
		where += " (" + cs.Spot.Desc + ")"
	}
	return fmt.Sprintf("spot %d at %s: %v", cs.Spot.Index, where, err)
}

// skippedCase is the record of a test case whose follow-up the relation
// could not derive.
func (r *runner) skippedCase(cs Case, err error) *CaseResult {
	seed := r.pairSeed(cs.Pair)
	return &CaseResult{
		Index: cs.Index, Seed: seed.Name, Flags: seed.Flags.String(), Relation: r.c.Relations[cs.Relation].Name, pair: cs.Pair,
		Spot:   result.Spot{Index: cs.Spot.Index, Line: cs.Spot.Line, Col: cs.Spot.Col, Desc: cs.Spot.Desc},
		Status: result.CaseSkip, Skip: SkipRelationFailed, Error: skipMessage(mutationMessage(seed.Name, cs, err)),
	}
}

// noSeedLeft is ErrNoSeedLeft with the skips of the shard, at most ten of
// them named.
func noSeedLeft(skips []result.SeedSkip) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: the relations failed on every seed they could work on, and no test case ran:", ErrNoSeedLeft)
	for i, sk := range skips {
		if i == 10 {
			fmt.Fprintf(&b, "\n  … and %d more (report.json, seeds.skipped)", len(skips)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s (%s): %s", sk.Name(), strings.Join(sk.Relations, ", "), sk.Message)
	}
	return &noSeedLeftError{msg: b.String()}
}

type noSeedLeftError struct{ msg string }

func (e *noSeedLeftError) Error() string { return e.msg }
func (e *noSeedLeftError) Unwrap() error { return ErrNoSeedLeft }
