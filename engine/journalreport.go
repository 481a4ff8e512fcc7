package engine

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
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
// campaign that did nothing. The findings the journal keeps lean (see
// result.Finding.Lean) are completed from their bundles, read through
// bundles, the output directory, as a resume completes them; with nil
// bundles they stay lean.
func JournalReport(rd io.Reader, name string, bundles *bundle.Reader) (*result.Report, error) {
	var t tally
	var skips seedSkips
	jr := journalReader{
		name:  name,
		check: checkOwnCase,
		visit: func(cr *CaseResult) {
			if bundles != nil {
				bundles.FillEvidence(cr.Findings)
			}
			if cr.Skip == SkipRelationFailed {
				skips.add(cr.Seed, cr.Flags, cr.Relation, 1, cr.Error)
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
	rep.BundlesPerGroup, _ = strconv.Atoi(fp["bundles_per_group"])
	rep.Timing.WallNS = rp.elapsed.Nanoseconds()
	for _, rel := range strings.Fields(strings.Trim(fp["relations"], "[]")) {
		rep.ByRelation[rel] = t.byRelation[rel]
	}
	rep.Release = fp["release"]
	combos := 1
	if f, ok := fp["flags"]; ok {
		rep.Flags = combinationsOf(f)
		combos = max(1, len(rep.Flags))
	}
	pairs := 0 // the seeds under each combination of flags
	for k := range fp {
		if strings.HasPrefix(k, "seed ") {
			pairs += combos
		}
	}
	rep.Seeds.Total = pairs
	if sh, err := ParseShard(rep.Shard); err == nil && sh.Count > 1 {
		// Pair k is shard k mod Count's.
		rep.Seeds.Total = 0
		if sh.Index < pairs {
			rep.Seeds.Total = (pairs-1-sh.Index)/sh.Count + 1
		}
	}
	rep.Seeds.Skipped = skips.list()
	if rep.Findings == nil {
		rep.Findings = []result.Finding{}
	}
	rep.Sort()
	rep.Groups = signature.Group(rep.Findings)
	signature.MarkFlaky(rep.Groups, t.flaky)
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
		if f.Case != cr.Index || f.SeedFile != cr.Seed || f.Flags != cr.Flags || f.Relation != cr.Relation {
			return fmt.Errorf("finding %s is not of this case", f.ID)
		}
	}
	return nil
}

// combinationsOf names the combinations of the flags matrix whose
// fingerprint (matrix.Matrix.Fingerprint) a journal's header holds, in
// the order of matrix.Matrix.Combinations, the last dimension varying
// fastest: "target: es2017 [...], es2022 [...]; module: esnext [...]"
// gives target=es2017,module=esnext and target=es2022,module=esnext.
func combinationsOf(fingerprint string) []string {
	out := []string{""}
	for _, dim := range splitTop(fingerprint, ';') {
		name, values, ok := strings.Cut(strings.TrimSpace(dim), ":")
		if !ok {
			return nil
		}
		var next []string
		for _, c := range out {
			for _, v := range splitTop(values, ',') {
				v, _, _ = strings.Cut(v, "[")
				setting := strings.TrimSpace(name) + "=" + strings.TrimSpace(v)
				if c != "" {
					setting = c + "," + setting
				}
				next = append(next, setting)
			}
		}
		out = next
	}
	return out
}

// splitTop splits s at sep outside brackets and quoted strings.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}
