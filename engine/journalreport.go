package engine

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// StoppedKilled is the Stopped of a report made from a journal (see
// JournalReport): the campaign ended without writing its report.
const StoppedKilled = "killed"

// JournalReport makes the report of the test cases a journal holds, read
// from rd (name names it in errors), for a campaign that ended without
// writing its report: killed (SIGKILL, the machine lost) and not resumed.
// It holds what the journal does: the test cases, their findings (with
// their bundles) and the seeds skipped for a relation's error, the mode,
// seed, shard, campaign and budget of the header; not the seeds the
// transpiler rejected or whose base crashed, nor those a relation skipped
// at their spots (no test case of theirs was planned), which only the
// report of a campaign holds. Its Stopped is StoppedKilled. The journal's checksums
// are checked as a resume checks them, and each case against itself (a
// status that agrees with its findings); a journal without a header is a
// campaign that did nothing.
func JournalReport(rd io.Reader, name string) (*result.Report, error) {
	var t tally
	var skips seedSkips
	jr := journalReader{
		name:  name,
		check: checkOwnCase,
		visit: func(cr *CaseResult) {
			if cr.Skip == SkipRelationFailed {
				skips.add(cr.Seed, cr.Relation, 1, cr.Error)
				return
			}
			t.add(cr)
		},
	}
	_, rp, err := jr.read(rd)
	if err != nil && !errors.Is(err, errNoHeader) {
		return nil, err
	}
	fp := jr.fingerprint
	if fp == nil {
		return nil, fmt.Errorf("%s: the journal has no header: the campaign did nothing before it stopped", name)
	}
	rep := &result.Report{
		Tool: "mcpt", Mode: fp["mode"], Shard: fp["shard"], Campaign: campaignID(fp),
		ByRelation: map[string]result.RelationStats{}, Findings: t.findings,
		TestCases: t.cases, TranspilerRuns: t.runs, RecheckRuns: t.rechecks, NondeterministicCases: t.nondeterministic,
		Timing: t.timing, Cases: t.summaries, Stopped: StoppedKilled,
	}
	rep.Seed, _ = strconv.ParseUint(fp["seed"], 10, 64)
	rep.MaxCases, _ = strconv.Atoi(fp["max_cases"])
	rep.Timing.WallNS = rp.elapsed.Nanoseconds()
	for _, rel := range strings.Fields(strings.Trim(fp["relations"], "[]")) {
		rep.ByRelation[rel] = t.byRelation[rel]
	}
	seeds := 0
	for k := range fp {
		if strings.HasPrefix(k, "seed ") {
			seeds++
		}
	}
	rep.Seeds.Total = seeds
	if sh, err := ParseShard(rep.Shard); err == nil && sh.Count > 1 {
		// Seed k is shard k mod Count's.
		rep.Seeds.Total = 0
		if sh.Index < seeds {
			rep.Seeds.Total = (seeds-1-sh.Index)/sh.Count + 1
		}
	}
	rep.Seeds.Skipped = skips.list(func(string) bool { return true })
	if rep.Findings == nil {
		rep.Findings = []result.Finding{}
	}
	rep.Sort()
	rep.Groups = signature.Group(rep.Findings)
	return rep, nil
}

// checkOwnCase checks what a journaled case says of itself: a status that
// agrees with its findings, findings of this case.
func checkOwnCase(cr *CaseResult) error {
	switch {
	case cr.Index < 0:
		return errors.New("index out of range")
	case cr.Status == result.CasePass && len(cr.Findings) == 0, cr.Status == result.CaseSkip && len(cr.Findings) == 0:
	case cr.Status == result.CaseFinding && len(cr.Findings) > 0:
	default:
		return fmt.Errorf("status %q with %d findings", cr.Status, len(cr.Findings))
	}
	for _, f := range cr.Findings {
		if f.Case != cr.Index || f.SeedFile != cr.Seed || f.Relation != cr.Relation {
			return fmt.Errorf("finding %s is not of this case", f.ID)
		}
	}
	return nil
}
