// Package merge merges the output directories of campaign shards into one:
// the reports are summed, the findings and their bundles gathered, and the
// groups rebuilt, so that n shards of a campaign read like one run.
package merge

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/outdir"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// Options change how Shards takes its shards.
type Options struct {
	// Partial merges shards that did not run to their end (interrupted or
	// broken, and not resumed); the report lists them in Incomplete.
	// Without it such a shard is refused.
	Partial bool
	// Invocation is the command that starts mcpt, for the repro command
	// of each bundle linked; "" is "mcpt".
	Invocation string
	// Standalone links (or copies) every bundle into the merged output,
	// so that it holds all it shows; without it the merged report refers
	// in place to the bundles of shards beside it (see bundle.Ref).
	Standalone bool
}

// ErrIncomplete is wrapped by the error of a merge that refuses a shard
// that did not run to its end.
var ErrIncomplete = errors.New("incomplete shard")

// Shards reads OUT/report.json of each directory and writes the merged
// report, report.html and junit.xml into out. The merged report refers
// to the bundles of shards beside out (below its parent) in place, by
// paths "../SHARD/findings/ID", so that a merge writes no bundle; the
// bundles of other shards, and all of them with opt.Standalone, are
// hard-linked into out where they share its file system and copied
// where they do not (see bundle.Reader.Link).
func Shards(dirs []string, out string, opt Options) (*result.Report, error) {
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
	// The bundles the merged report keeps: those of findings counted
	// once the shards' groups are one are left where they are.
	keep := map[string]bool{}
	for _, f := range m.Findings {
		keep[f.ID] = f.Bundle != ""
	}
	placed := map[string]string{}
	for i, r := range reps {
		var fs []result.Finding
		for _, f := range r.Findings {
			if keep[f.ID] {
				fs = append(fs, f)
			}
		}
		if err := placeBundles(dirs[i], out, opt, fs, placed); err != nil {
			return nil, err
		}
	}
	for i := range m.Findings {
		if p, ok := placed[m.Findings[i].ID]; ok {
			m.Findings[i].Bundle = p
		}
	}
	// Writing report.html checks the tree of every bundle (see
	// bundle.Reader.CheckTree), refusing the merge before report.json is
	// written.
	if err := report.WriteWithoutPages(out, m); err != nil {
		return nil, err
	}
	return m, m.Save(filepath.Join(out, report.ReportJSON))
}

// incomplete refuses a shard that did not run to its end, or, with
// partial, lists it in m.Incomplete.
func incomplete(m *result.Report, dirs []string, reps []*result.Report, partial bool) error {
	for i, r := range reps {
		if r.Stopped != "interrupted" && r.Stopped != "error" && r.Stopped != engine.StoppedKilled {
			continue
		}
		what := map[string]string{
			"interrupted": "was interrupted (exit 4)", "error": "broke (exit 3)",
			engine.StoppedKilled: "was killed before it wrote its report (its journal holds its test cases)",
		}[r.Stopped]
		as := "as it is"
		if r.Stopped == engine.StoppedKilled {
			as = "as its journal has it"
		}
		if !partial {
			return fmt.Errorf("%s (shard %s) %s after %d test cases and was not resumed: "+
				"complete it with %s, then merge again; merge --partial merges it %s, in an incomplete report: %w",
				dirs[i], r.Shard, what, r.TestCases, resumeCommand(dirs[i], r), as, ErrIncomplete)
		}
		m.Incomplete = append(m.Incomplete, result.IncompleteShard{Shard: r.Shard, Dir: dirs[i], Stopped: r.Stopped, TestCases: r.TestCases})
	}
	if len(m.Incomplete) > 0 {
		m.Stopped = "interrupted"
	}
	return nil
}

// resumeCommand is the command that completes the campaign of the output
// directory dir, whose report is r: for a campaign killed before it
// wrote its report, whose configuration no file of dir names, with -c to
// fill in.
func resumeCommand(dir string, r *result.Report) string {
	if r.Config != "" {
		return "mcpt run -c " + r.Config + " --resume " + dir
	}
	if r.Stopped == engine.StoppedKilled {
		return "mcpt run -c CONFIG --resume " + dir + " (CONFIG: the campaign's configuration)"
	}
	return "mcpt run --resume " + dir
}

// Reports merges reports of shards of one campaign. They must agree on the
// mode and seed; a finding that two shards both report is kept once.
func Reports(names []string, reps []*result.Report) (*result.Report, error) {
	m := &result.Report{ByRelation: map[string]result.RelationStats{}, Findings: []result.Finding{}}
	seen := map[string]string{}
	shards := map[string]string{}
	flaky := map[string]int{}
	for i, r := range reps {
		for _, g := range r.Groups {
			flaky[g.Signature] += g.Flaky
		}
		if i == 0 {
			m.Tool, m.Mode, m.Seed, m.Config, m.Campaign, m.MaxCases = r.Tool, r.Mode, r.Seed, r.Config, r.Campaign, r.MaxCases
			m.BundlesPerGroup = r.BundlesPerGroup
			// The same for every shard: of the campaign's fingerprint.
			m.Release, m.Flags = r.Release, r.Flags
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
		m.Seeds.Skipped = append(m.Seeds.Skipped, r.Seeds.Skipped...)
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
	m.Seeds.Skipped = result.SortSkips(m.Seeds.Skipped)
	slices.SortStableFunc(m.Cases, func(a, b result.CaseSummary) int {
		if c := strings.Compare(a.Seed, b.Seed); c != 0 {
			return c
		}
		if c := strings.Compare(a.Relation, b.Relation); c != 0 {
			return c
		}
		return strings.Compare(a.Flags, b.Flags)
	})
	m.Sort()
	if m.BundlesPerGroup > 0 {
		regroup(m.Findings, m.BundlesPerGroup)
	}
	m.Groups = signature.Group(m.Findings)
	signature.MarkFlaky(m.Groups, flaky)
	m.OrderGroupFlags()
	return m, nil
}

// regroup makes the findings of shards, in case order, those of one
// campaign: each shard bundled the first k findings of each group among
// its own, the merged report keeps the bundles of the first k of the
// whole group, and counts the others; the group's candidate is its
// finding with the smallest follow-up (the earliest of equals) when that
// is not one of the k. That candidate had its evidence in its shard, as
// the first k had: a shard keeps every finding that is smaller than all
// its earlier ones of the group. So the merged report has the bundles
// and counts an unsharded run would have.
func regroup(fs []result.Finding, k int) {
	bySig := map[string][]int{}
	var order []string
	for i := range fs {
		if fs[i].Case < 0 {
			continue // a base run's finding: not grouped by case
		}
		sig := fs[i].Signature
		if bySig[sig] == nil {
			order = append(order, sig)
		}
		bySig[sig] = append(bySig[sig], i)
	}
	for _, sig := range order {
		idx := bySig[sig]
		smallest := -1
		for n, i := range idx {
			f := &fs[i]
			if f.Counted {
				continue
			}
			if n < k {
				f.Candidate = false
			}
			if smallest < 0 || f.FollowUpBytes < fs[smallest].FollowUpBytes {
				smallest = i
			}
		}
		for n, i := range idx {
			f := &fs[i]
			switch {
			case n < k || f.Counted:
			case i == smallest:
				f.Candidate = true
			default:
				f.Strip()
			}
		}
	}
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
// a link (see bundle.Reader). A directory without one, whose campaign was
// killed before it wrote its report, gives the report of its journal
// (see engine.JournalReport), whose Stopped is engine.StoppedKilled; one
// whose campaign still runs (it holds the lock) is refused.
func loadReport(dir string) (*result.Report, error) {
	rep, err := loadLeanReport(dir)
	if err != nil {
		return nil, err
	}
	// The groups of the merge read the findings' evidence, as the
	// campaign's did: the bundles keep the whole files of it.
	rd, err := bundle.OpenOutput(dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	rd.FillEvidence(rep.Findings)
	return rep, nil
}

// loadLeanReport is loadReport without the evidence the bundles keep.
func loadLeanReport(dir string) (*result.Report, error) {
	rd, err := bundle.Open(dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	rep, err := rd.LoadReport(report.ReportJSON)
	if !errors.Is(err, fs.ErrNotExist) {
		return rep, err
	}
	f, jerr := rd.OpenRegular(engine.JournalName)
	if errors.Is(jerr, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s holds neither %s nor %s: no campaign ran there", dir, report.ReportJSON, engine.JournalName)
	}
	if jerr != nil {
		return nil, jerr
	}
	defer f.Close()
	if holder, busy := outdir.Holder(dir); busy {
		return nil, fmt.Errorf("%s has no %s yet: its campaign still runs (%s holds it); merge once it has ended", dir, report.ReportJSON, holder)
	}
	return engine.JournalReport(bufio.NewReaderSize(f, 256<<10), filepath.Join(dir, engine.JournalName), rd)
}

// placeBundles places the bundles of findings from the output directory
// dir in the merged output out, and records in placed the path of each,
// relative to out: a reference to the bundle in place where dir is beside
// out and opt.Standalone is not set, else a link (or copy) in out. Nothing
// is read outside dir and out's parent (see bundle.Reader); a finding
// placed already (the same finding in two shards) is left as it is.
func placeBundles(dir, out string, opt Options, findings []result.Finding, placed map[string]string) error {
	src, err := bundle.OpenOutput(dir)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := bundle.OpenOutput(out)
	if err != nil {
		return err
	}
	defer dst.Close()
	beside := map[string]bool{} // directories of bundles, by reference: the same seen from out
	for _, f := range findings {
		if _, done := placed[f.ID]; done || f.Bundle == "" {
			continue
		}
		if ref, ok := bundle.Ref(out, filepath.Join(dir, filepath.FromSlash(f.Bundle))); ok && !opt.Standalone {
			d := path.Dir(ref)
			same, seen := beside[d]
			if !seen {
				a, err1 := dst.Stat(d)
				b, err2 := src.Stat(path.Dir(f.Bundle))
				same = err1 == nil && err2 == nil && os.SameFile(a, b)
				beside[d] = same
			}
			if same {
				placed[f.ID] = ref
				continue
			}
		}
		rel := f.Bundle
		if !filepath.IsLocal(filepath.FromSlash(rel)) { // a reference of a merged output
			// An archive or a bundle directory of an earlier mcpt, as
			// the source is.
			rel = path.Join(bundle.Dir, path.Base(f.Bundle))
		}
		to := filepath.Join(out, filepath.FromSlash(rel))
		if err := src.Link(f.Bundle, to, bundle.ReproCommand(opt.Invocation, to)); err != nil {
			return fmt.Errorf("finding %s: %w", f.ID, err)
		}
		placed[f.ID] = rel
	}
	return nil
}
