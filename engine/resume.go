package engine

import (
	"fmt"
	"hash/fnv"

	"github.com/mcpt-tool/mcpt/result"
)

// checkJournalPlan compares the cases of a resumed journal with the plan:
// a digest of every case of the shard up to the journal's last, by index,
// seed, relation and spot, must be the journal's. It takes the plan's
// cases from src up to the journal's last (whose results the weights of
// the plan see as it goes), so that src goes on from the first case after
// it.
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
		si := r.admitted[cs.Seed]
		if r.opt.Shard.owns(si) {
			d.add(cs.Index, r.seeds[si].Name, r.c.Relations[cs.Relation].Name, cs.Spot.Index)
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

func (d *planDigest) add(index int, seed, relation string, spot int) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", index, seed, relation, spot)
	d.n++
	d.hash = d.hash*1099511628211 ^ h.Sum64()
}

// checkCase validates a journaled case against the campaign: an index the
// budget allows, a seed of the shard, a known relation, a status that
// agrees with the findings.
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
	}
	si, ok := r.known["seed "+cr.Seed]
	if !ok {
		return fmt.Errorf("unknown seed %q", cr.Seed)
	}
	if !r.opt.Shard.owns(si) {
		return fmt.Errorf("seed %q is not of shard %s", cr.Seed, r.opt.Shard)
	}
	if _, ok := r.known["relation "+cr.Relation]; !ok {
		return fmt.Errorf("unknown relation %q", cr.Relation)
	}
	switch {
	case cr.Status == result.CasePass && len(cr.Findings) == 0 && len(cr.Flaky) == 0, cr.Status == result.CaseSkip && len(cr.Findings) == 0:
	case cr.Status == result.CaseFinding && len(cr.Findings) > 0 && len(cr.Flaky) == 0:
	default:
		return fmt.Errorf("status %q with %d findings", cr.Status, len(cr.Findings))
	}
	for _, f := range cr.Findings {
		if f.Case != cr.Index || f.SeedFile != cr.Seed || f.Relation != cr.Relation {
			return fmt.Errorf("finding %s is not of this case", f.ID)
		}
		if f.Counted && f.Candidate {
			return fmt.Errorf("finding %s is counted and a candidate", f.ID)
		}
	}
	r.journalDigest.add(cr.Index, cr.Seed, cr.Relation, cr.Spot.Index)
	return nil
}
