// Package shard merges the output directories of campaign shards into one:
// the reports are summed, the findings and their bundles gathered, and the
// groups rebuilt, so that n shards of a campaign read like one run.
package shard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// Options change how Merge takes its shards.
type Options struct {
	// Partial merges shards that did not run to their end (interrupted or
	// broken, and not resumed); the report lists them in Incomplete.
	// Without it such a shard is refused.
	Partial bool
	// Invocation is the command that starts mcpt, for the repro command
	// of each bundle merged; "" is "mcpt".
	Invocation string
}

// ErrIncomplete is wrapped by the error of a merge that refuses a shard
// that did not run to its end.
var ErrIncomplete = errors.New("incomplete shard")

// Merge reads OUT/report.json of each directory and writes the merged
// report, the bundles, report.html and junit.xml into out. The bundles
// are hard-linked from the shards where they share out's file system
// (see bundle.Reader.Link).
func Merge(dirs []string, out string, opt Options) (*result.Report, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	var reps []*result.Report
	for _, d := range dirs {
		r, err := loadReport(d)
		if err != nil {
			return nil, err
		}
		reps = append(reps, r)
	}
	m, err := Reports(dirs, reps)
	if err != nil {
		return nil, err
	}
	if err := incomplete(m, dirs, reps, opt.Partial); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	for i, r := range reps {
		if err := linkBundles(dirs[i], out, opt.Invocation, r.Findings); err != nil {
			return nil, err
		}
	}
	if err := m.Save(filepath.Join(out, report.ReportJSON)); err != nil {
		return nil, err
	}
	return m, report.Write(out, m)
}

// incomplete refuses a shard that did not run to its end, or, with
// partial, lists it in m.Incomplete.
func incomplete(m *result.Report, dirs []string, reps []*result.Report, partial bool) error {
	for i, r := range reps {
		if r.Stopped != "interrupted" && r.Stopped != "error" {
			continue
		}
		what := map[string]string{"interrupted": "was interrupted (exit 4)", "error": "broke (exit 3)"}[r.Stopped]
		if !partial {
			return fmt.Errorf("%s (shard %s) %s after %d test cases and was not resumed: "+
				"complete it with mcpt run --resume %s, then merge again; merge --partial merges it as it is, in an incomplete report: %w",
				dirs[i], r.Shard, what, r.TestCases, dirs[i], ErrIncomplete)
		}
		m.Incomplete = append(m.Incomplete, result.IncompleteShard{Shard: r.Shard, Dir: dirs[i], Stopped: r.Stopped, TestCases: r.TestCases})
	}
	if len(m.Incomplete) > 0 {
		m.Stopped = "interrupted"
	}
	return nil
}

// Reports merges reports of shards of one campaign. They must agree on the
// mode and seed; a finding that two shards both report is kept once.
func Reports(names []string, reps []*result.Report) (*result.Report, error) {
	m := &result.Report{ByRelation: map[string]result.RelationStats{}, Findings: []result.Finding{}}
	seen := map[string]string{}
	shards := map[string]string{}
	for i, r := range reps {
		if i == 0 {
			m.Tool, m.Mode, m.Seed, m.Config, m.Campaign, m.MaxCases = r.Tool, r.Mode, r.Seed, r.Config, r.Campaign, r.MaxCases
		} else if r.Mode != m.Mode || r.Seed != m.Seed {
			return nil, fmt.Errorf("%s is a %s run with seed %d, %s a %s run with seed %d: not shards of one campaign",
				names[i], r.Mode, r.Seed, names[0], m.Mode, m.Seed)
		} else if r.Campaign != m.Campaign {
			return nil, fmt.Errorf("%s and %s are runs of different campaigns (configuration, transpiler, relations, seeds or flags differ): not shards of one campaign", names[0], names[i])
		}
		if r.Shard != "" {
			if other, dup := shards[r.Shard]; dup {
				return nil, fmt.Errorf("%s and %s are both shard %s", other, names[i], r.Shard)
			}
			shards[r.Shard] = names[i]
		}
		m.TestCases += r.TestCases
		m.NondeterministicCases += r.NondeterministicCases
		m.RecheckRuns += r.RecheckRuns
		m.WorkerRestarts += r.WorkerRestarts
		m.WorkerStaleResponses += r.WorkerStaleResponses
		m.TranspilerRuns += r.TranspilerRuns
		m.Seeds.Total += r.Seeds.Total
		m.Seeds.Rejected = append(m.Seeds.Rejected, r.Seeds.Rejected...)
		m.Seeds.Nondeterministic = append(m.Seeds.Nondeterministic, r.Seeds.Nondeterministic...)
		m.Seeds.Crashed = append(m.Seeds.Crashed, r.Seeds.Crashed...)
		for name, st := range r.ByRelation {
			acc := m.ByRelation[name]
			acc.Merge(st)
			m.ByRelation[name] = acc
		}
		m.Cases = append(m.Cases, r.Cases...)
		for _, f := range r.Findings {
			if _, dup := seen[f.ID]; dup {
				continue
			}
			seen[f.ID] = names[i]
			m.Findings = append(m.Findings, f)
		}
		m.Timing.MutationNS += r.Timing.MutationNS
		m.Timing.TranspileNS += r.Timing.TranspileNS
		m.Timing.CheckNS += r.Timing.CheckNS
		m.Timing.WallNS = max(m.Timing.WallNS, r.Timing.WallNS)
		if r.Stopped != "budget" && r.Stopped != "" {
			m.Stopped = r.Stopped
		}
	}
	if m.Stopped == "" {
		m.Stopped = "budget"
	}
	if err := complete(names, reps); err != nil {
		return nil, err
	}
	for _, l := range []*[]string{&m.Seeds.Rejected, &m.Seeds.Nondeterministic, &m.Seeds.Crashed} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	slices.SortStableFunc(m.Cases, func(a, b result.CaseSummary) int {
		if c := strings.Compare(a.Seed, b.Seed); c != 0 {
			return c
		}
		return strings.Compare(a.Relation, b.Relation)
	})
	m.Sort()
	m.Groups = signature.Group(m.Findings)
	return m, nil
}

// complete checks that sharded reports are all the shards of their
// campaign: the same count, every index once.
func complete(names []string, reps []*result.Report) error {
	count, have := 0, map[int]bool{}
	for i, r := range reps {
		if r.Shard == "" {
			if len(reps) > 1 {
				return fmt.Errorf("%s is not a shard: merge takes the shards of one campaign", names[i])
			}
			continue
		}
		var idx, n int
		if _, err := fmt.Sscanf(r.Shard, "%d/%d", &idx, &n); err != nil || n < 1 || idx < 0 || idx >= n {
			return fmt.Errorf("%s: shard %q is not INDEX/COUNT", names[i], r.Shard)
		}
		if count != 0 && n != count {
			return fmt.Errorf("%s is a shard of %d, %s of %d: not shards of one campaign", names[0], count, names[i], n)
		}
		count, have[idx] = n, true
	}
	var missing []string
	for k := range count {
		if !have[k] {
			missing = append(missing, fmt.Sprintf("%d/%d", k, count))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard%s %s missing: merge takes every shard of the campaign", map[bool]string{true: "s"}[len(missing) > 1], strings.Join(missing, ", "))
	}
	return nil
}

// loadReport reads the report.json of the output directory dir, refusing
// a link (see bundle.Reader).
func loadReport(dir string) (*result.Report, error) {
	rd, err := bundle.Open(dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.LoadReport(report.ReportJSON)
}

// linkBundles links (or copies) the bundles of findings from the output
// directory dir into out, reading nothing outside dir (see bundle.Reader);
// a bundle that is in out already is left as it is (the same finding
// merged twice). mcpt starts mcpt in the bundles' repro commands.
func linkBundles(dir, out, mcpt string, findings []result.Finding) error {
	r, err := bundle.Open(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range findings {
		if f.Bundle == "" {
			continue
		}
		dst := filepath.Join(out, filepath.FromSlash(f.Bundle))
		if err := r.Link(f.Bundle, dst, bundle.ReproCommand(mcpt, dst)); err != nil {
			return fmt.Errorf("finding %s: %w", f.ID, err)
		}
	}
	return nil
}
