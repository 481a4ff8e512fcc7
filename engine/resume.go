package engine

import (
	"fmt"
	"hash/fnv"

	"github.com/mcpt-tool/mcpt/result"
)

// checkJournalPlan compares the cases of a resumed journal with the plan:
// a digest of every case of the shard up to the journal's last, by index,
// seed, combination of flags, relation and spot, must be the journal's.
// It takes the plan's cases from src up to the journal's last (whose
// results the weights of the plan see as it goes), so that src goes on
// from the first case after it.
func (r *runner) checkJournalPlan(src *caseSource) error {
	var d planDigest
	for {
		cs, ok := src.take()
		if !ok {
			if src.pl.err != nil {
				return src.pl.err
			}
			break
		}
		if cs.Index > r.resumed.last {
			src.putBack(cs)
			break
		}
		p := r.admitted[cs.Seed]
		if r.opt.Shard.owns(p) {
			seed := r.pairSeed(p)
			d.add(cs.Index, seed.Name, seed.Flags.String(), r.c.Relations[cs.Relation].Name, cs.Spot.Index)
		}
	}
	if d != r.journalDigest {
		return fmt.Errorf("%w: the journal's %d cases are not those of this campaign's plan up to case %d (%d): a record was changed, or the transpiler accepted other seeds this time",
			ErrCannotResume, r.journalDigest.n, r.resumed.last, d.n)
	}
	return nil
}

// planDigest sums up a sequence of cases: how many, and a hash of what
// identifies each.
type planDigest struct {
	n    int
	hash uint64
}

func (d *planDigest) add(index int, seed, flags, relation string, spot int) {
	h := fnv.New64a()
	if flags != "" {
		seed += "\x00flags " + flags
	}
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", index, seed, relation, spot)
	d.n++
	d.hash = d.hash*1099511628211 ^ h.Sum64()
}

// checkCase validates a journaled case against the campaign: an index the
// budget allows, a seed and combination of flags of the shard, a known
// relation, a status that agrees with the findings.
func (r *runner) checkCase(cr *CaseResult) error {
	if cr.Index < 0 || (r.opt.MaxCases > 0 && cr.Index >= r.opt.MaxCases) {
		return fmt.Errorf("index out of range (max_cases %d)", r.opt.MaxCases)
	}
	if r.known == nil {
		r.known = map[string]int{}
		for i, s := range r.c.Seeds {
			r.known["seed "+s.Name] = i
		}
		for _, rel := range r.c.Relations {
			r.known["relation "+rel.Name] = 0
		}
		for i, c := range r.combos {
			r.known["flags "+c.String()] = i
		}
	}
	si, ok := r.known["seed "+cr.Seed]
	if !ok {
		return fmt.Errorf("unknown seed %q", cr.Seed)
	}
	ci, ok := r.known["flags "+cr.Flags]
	if !ok {
		return fmt.Errorf("unknown combination of flags %q", cr.Flags)
	}
	// Journaled pairs are of the campaign's seeds (no feedback on
	// resume), numbered seed-major.
	p := si*len(r.combos) + ci
	if !r.opt.Shard.owns(p) {
		return fmt.Errorf("seed %s is not of shard %s", pairName(Seed{Name: cr.Seed, Flags: r.combos[ci]}), r.opt.Shard)
	}
	cr.pair = p
	if _, ok := r.known["relation "+cr.Relation]; !ok {
		return fmt.Errorf("unknown relation %q", cr.Relation)
	}
	if err := checkOwnCase(cr); err != nil {
		return err
	}
	if len(cr.Flaky) > 0 && cr.Status != result.CaseSkip {
		return fmt.Errorf("status %q with flaky signatures", cr.Status)
	}
	for _, f := range cr.Findings {
		if f.Counted && f.Candidate {
			return fmt.Errorf("finding %s is counted and a candidate", f.ID)
		}
	}
	r.journalDigest.add(cr.Index, cr.Seed, cr.Flags, cr.Relation, cr.Spot.Index)
	return nil
}
