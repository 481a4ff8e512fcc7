package signature

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/result"
)

// Group groups findings by signature; groups are ordered by the
// first finding of each. The example of a group is its finding with the
// smallest input (then the earliest) among those that kept their
// evidence: a counted finding (result.Finding.Counted) is an example only
// in a group of counted findings alone. The combination of flags is no
// part of a signature: the same failure under two combinations is one
// group, which lists the combinations its findings ran under.
func Group(fs []result.Finding) []result.Group {
	idx := map[string]int{}
	var groups []result.Group
	size := map[string]int{}
	better := func(f result.Finding, g *result.Group, ex *result.Finding) bool {
		if ex.Counted != f.Counted {
			return ex.Counted
		}
		return weight(f) < size[g.Example]
	}
	examples := map[int]*result.Finding{}
	for i, f := range fs {
		gi, ok := idx[f.Signature]
		if !ok {
			gi = len(groups)
			idx[f.Signature] = gi
			groups = append(groups, result.Group{Signature: f.Signature, Kind: f.Kind, Relation: f.Relation, Checker: f.Checker, File: f.File, Example: f.ID})
			size[f.ID] = weight(f)
			examples[gi] = &fs[i]
		}
		g := &groups[gi]
		g.Count++
		g.Findings = append(g.Findings, f.ID)
		if f.Counted {
			g.Counted++
		}
		if f.Candidate {
			g.Candidate = f.ID
		}
		if f.Flags != "" && !slices.Contains(g.Flags, f.Flags) {
			g.Flags = append(g.Flags, f.Flags)
		}
		if ex := examples[gi]; ex != &fs[i] && better(f, g, ex) {
			size[f.ID] = weight(f)
			g.Example = f.ID
			g.File = f.File
			examples[gi] = &fs[i]
		}
	}
	byID := map[string]*result.Finding{}
	for i := range fs {
		byID[fs[i].ID] = &fs[i]
	}
	titled(groups, byID)
	return groups
}

// MarkFlaky sets the Flaky count of each group from the test cases whose
// first run failed with its signature but whose re-runs disagreed, by
// signature.
func MarkFlaky(groups []result.Group, flaky map[string]int) {
	for i := range groups {
		groups[i].Flaky = flaky[groups[i].Signature]
	}
}

// titled gives each group its title. Two groups whose titles would differ
// by the example's file at most get what tells them apart: how their
// example departs from the prediction (see Differs), and the hash of their
// signature only when that is the same too. A group of rejected follow-ups
// always says its diagnostic.
func titled(groups []result.Group, byID map[string]*result.Finding) {
	count := map[string]int{}
	base := make([]string, len(groups))
	for i := range groups {
		g := &groups[i]
		what := g.Checker
		if what == "" {
			what = string(g.Kind)
		}
		if f := byID[g.Example]; f != nil && f.FileKey != "" && f.FileKey != f.File {
			g.FileKey = f.FileKey
		}
		key := cmp.Or(g.FileKey, g.File)
		if g.File != "" && strings.Contains(what, g.File) {
			what = strings.ReplaceAll(what, g.File, key)
		} else if key != "" {
			what += " " + key
		}
		base[i] = orDash(g.Relation) + ": " + what
		count[base[i]]++
	}
	seen := map[string]int{}
	for i := range groups {
		g := &groups[i]
		g.Title = base[i]
		// A rejected follow-up's diagnostic is the first thing to know of
		// it: its group says it whether or not another group is alike.
		if f := byID[g.Example]; f != nil && (count[base[i]] > 1 || f.Kind == result.RejectedFollowUp && f.Diagnostic != "") {
			g.Differs = Differs(f)
			if g.Differs != "" {
				g.Title += " · " + g.Differs
			}
		}
		seen[g.Title]++
	}
	for i := range groups {
		g := &groups[i]
		if seen[g.Title] > 1 {
			g.Title += " #" + g.Signature[strings.LastIndexByte(g.Signature, '/')+1:]
		}
		if g.FileKey != "" {
			g.Title += " (e.g. " + g.File + ")"
		}
	}
}

// weight orders findings of a group by how small their evidence is.
func weight(f result.Finding) int { return len(f.Expected) + len(f.Actual) + len(f.Stderr) }
