// Package result is the run model of mcpt: findings, per-relation counts and
// the report of a campaign, as written to report.json. Reports, merging and
// sharding need nothing but this package, so that a report can be rebuilt
// from the JSON alone.
package result

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a finding.
type Kind string

const (
	// Oracle: a consistency checker failed on the pair of outputs.
	Oracle Kind = "oracle"
	// Crash: the transpiler exited with an unexpected status or a signal.
	Crash Kind = "crash"
	// Timeout: the transpiler was killed at the per-run timeout.
	Timeout Kind = "timeout"
	// RejectedFollowUp: the base was accepted but the follow-up rejected.
	RejectedFollowUp Kind = "rejected-followup"
)

// CaseStatus is the outcome of one test case, as the journal and the event
// stream record it.
type CaseStatus string

const (
	// CasePass: every checker held.
	CasePass CaseStatus = "pass"
	// CaseFinding: the test case has at least one finding.
	CaseFinding CaseStatus = "finding"
	// CaseSkip: a checker failed, but not when the follow-up and its base
	// were run again (a nondeterministic transpiler); no finding is
	// recorded.
	CaseSkip CaseStatus = "skip"
)

// Spot identifies where a mutation was applied in a seed.
type Spot struct {
	Index int    `json:"index"` // index among the relation's spots on the seed
	Line  int    `json:"line"`  // 1-based line of the spot in the seed
	Col   int    `json:"col"`   // 1-based column
	Desc  string `json:"desc"`  // a human description ("between Red and Green")
	// Kind is the kind of place of the spot (relation.Spot.Kind).
	Kind string `json:"kind,omitempty"`
}

// Finding is one failed test case: a relation broken by a transpiler run.
type Finding struct {
	ID       string `json:"id"`
	Kind     Kind   `json:"kind"`
	Relation string `json:"relation"`
	SeedFile string `json:"seed_file"`
	// Flags is the combination of flags the test case ran under
	// (target=es2022,module=esnext); "" for a campaign without flags.
	Flags    string `json:"flags,omitempty"`
	Spot     Spot   `json:"spot"`
	Case     int    `json:"case"`      // index of the test case in the campaign plan
	CaseSeed uint64 `json:"case_seed"` // seed of the test case's random choices (fresh names, picks)
	Mode     string `json:"mode"`      // "mcp" or "fuzz"
	Config   string `json:"config,omitempty"`
	// Faults are the demo faults switched on from the command line (mcpt run
	// --fault), which repro and reduce switch on again.
	Faults []string `json:"faults,omitempty"`
	// Role is the run that crashed or timed out: RoleBase or RoleFollowUp.
	Role string `json:"role,omitempty"`

	Checker  string `json:"checker,omitempty"` // the failed consistency checker
	File     string `json:"file,omitempty"`    // the output file the checker failed on
	Message  string `json:"message"`
	Expected string `json:"expected,omitempty"` // the predicted follow-up content of File
	Actual   string `json:"actual,omitempty"`   // the actual follow-up content of File
	Diff     string `json:"diff,omitempty"`     // unified diff from Expected to Actual
	// Compared is what a derived or semantic checker compared (see
	// Compared); nil for an exact check, whose Expected is the predicted
	// content of File.
	Compared *Compared `json:"compared,omitempty"`

	ExitCode int    `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	// Diagnostic is what the transpiler said about a follow-up it
	// rejected, in one line: its first message, with the paths of the
	// run's scratch directory written {input}, {outdir} and {workdir}.
	// Findings of rejected follow-ups are grouped by it.
	Diagnostic string `json:"diagnostic,omitempty"`

	// FileKey is File with its seed-dependent part replaced (see FileKey),
	// so that signatures match across seeds whose outputs are named after
	// the program; empty means File itself.
	FileKey string `json:"file_key,omitempty"`

	Bindings  map[string]string `json:"bindings,omitempty"` // names the mutation drew
	Fresh     []string          `json:"fresh,omitempty"`    // the keys of Bindings that hold fresh names
	Signature string            `json:"signature"`          // deduplication key
	Bundle    string            `json:"bundle,omitempty"`   // bundle directory, relative to the output directory

	// FollowUpBytes is the size of the follow-up input.
	FollowUpBytes int `json:"followup_bytes,omitempty"`
	// Counted marks a finding that is only counted in its group: the
	// group had its bundles already (bundles_per_group), so the finding
	// has none, and its evidence (Expected, Actual, Diff, Stderr,
	// Bindings, Compared) is left out; its case and case seed re-create it (mcpt
	// repro --case).
	Counted bool `json:"counted,omitempty"`
	// Candidate marks the finding of its group with the smallest
	// follow-up, when it came after the group had its bundles: it keeps
	// its evidence and a bundle of its own, for mcpt reduce.
	Candidate bool `json:"candidate,omitempty"`
	// EvidenceSum marks a finding written without the whole files of its
	// evidence (Expected and Actual), which its bundle's finding.json
	// keeps (see Lean): the hash of the two, by which they are read back.
	EvidenceSum string `json:"evidence_sum,omitempty"`
	// Evidence is, in a bundle's finding.json, Expected and Actual kept
	// as edits of the failing file the bundle holds (see Evidence); nil
	// where they are whole or left out.
	Evidence *Evidence `json:"evidence,omitempty"`
}

// Evidence is a finding's expected and actual content kept as edits, by
// a bundle that holds the follow-up's output: Actual is the failing file
// of followup-out/ with the edits Actual (what the configuration's
// normalize rules changed), or with the recipe's rules applied again
// (Normalized), Expected is Actual with the edits Expected.
// The finding's EvidenceSum checks what they give.
type Evidence struct {
	// Normalized says that Actual is the failing file as the normalize
	// rules of the bundle's recipe make it, without edits of its own.
	Normalized bool   `json:"normalized,omitempty"`
	Actual     []Edit `json:"actual,omitempty"`
	Expected   []Edit `json:"expected"`
}

// Edit replaces the bytes Start to End of a text with New. It is
// written as one string, "START-END:NEW", so that a finding.json keeps
// an edit on a line.
type Edit struct {
	Start, End int
	New        string
}

// MarshalJSON writes e as "START-END:NEW".
func (e Edit) MarshalJSON() ([]byte, error) {
	return json.Marshal(fmt.Sprintf("%d-%d:%s", e.Start, e.End, e.New))
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Edit) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	span, repl, ok := strings.Cut(s, ":")
	from, to, ok2 := strings.Cut(span, "-")
	start, err1 := strconv.Atoi(from)
	end, err2 := strconv.Atoi(to)
	if !ok || !ok2 || err1 != nil || err2 != nil || start < 0 || end < start {
		return fmt.Errorf("edit %.40q: not START-END:NEW", s)
	}
	*e = Edit{Start: start, End: end, New: repl}
	return nil
}

// Lean returns f as the journal and report.json keep it: a finding with
// a bundle leaves the whole files of its evidence (Expected and Actual,
// the predicted and the actual content of File) to the bundle's
// finding.json, and keeps their hash (EvidenceSum); its diff, the
// differing hunks with their context, stays. Any other finding is
// returned as it is.
func (f Finding) Lean() Finding {
	f.Evidence = nil
	if f.Bundle == "" || f.Expected == "" && f.Actual == "" {
		return f
	}
	f.EvidenceSum = EvidenceSum(f.Expected, f.Actual)
	f.Expected, f.Actual = "", ""
	return f
}

// IsLean tells whether f was written without its whole-file evidence (see
// Finding.Lean), which its bundle keeps.
func (f *Finding) IsLean() bool { return f.EvidenceSum != "" && f.Expected == "" && f.Actual == "" }

// Lean and Fill work on findings as the journal and report.json keep
// them, without the edits of a bundle's finding.json (see Evidence).

// Fill completes the lean finding f with the evidence of bf, the finding
// its bundle's finding.json holds, when that is the evidence f's sum
// names; it tells whether it did. A finding that is not lean is left as
// it is.
func (f *Finding) Fill(bf *Finding) bool {
	if !f.IsLean() || bf.ID != f.ID || EvidenceSum(bf.Expected, bf.Actual) != f.EvidenceSum {
		return false
	}
	f.Expected, f.Actual, f.EvidenceSum = bf.Expected, bf.Actual, ""
	return true
}

// EvidenceSum is the hash of a finding's expected and actual content that
// a lean finding keeps (see Finding.Lean).
func EvidenceSum(expected, actual string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00", len(expected))
	io.WriteString(h, expected)
	io.WriteString(h, actual)
	return "sha256:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// Strip leaves out what a counted finding does not keep (see Counted)
// and marks it counted.
func (f *Finding) Strip() {
	f.Expected, f.Actual, f.Diff, f.Stderr = "", "", "", ""
	f.Bindings, f.Fresh, f.Compared = nil, nil, nil
	f.Bundle, f.Candidate, f.Counted, f.EvidenceSum = "", false, true, ""
	if len(f.Message) > maxCountedMessage {
		cut := maxCountedMessage
		for cut > 0 && !utf8.RuneStart(f.Message[cut]) {
			cut--
		}
		f.Message = f.Message[:cut] + "…"
	}
}

// maxCountedMessage bounds the message a counted finding keeps.
const maxCountedMessage = 240

// RelationStats counts the work done for one relation.
type RelationStats struct {
	TestCases int `json:"test_cases"`
	Findings  int `json:"findings"`
	// Checked counts the test cases whose two outputs the checkers
	// compared (an accepted follow-up, in MCP mode); Checkers counts what
	// each checker concluded on them.
	Checked  int                     `json:"checked,omitempty"`
	Checkers map[string]CheckerStats `json:"checkers,omitempty"`
}

// CheckerStats counts what one checker of a relation concluded: the test
// cases it decided (passed or failed after comparing) and those it could
// not decide (a derived check with no neighbour or sibling to compare
// with), which pass without having checked anything.
type CheckerStats struct {
	Decided   int `json:"decided"`
	Failed    int `json:"failed,omitempty"`
	Undecided int `json:"undecided,omitempty"`
	// Why counts the undecided test cases by the reason the checker gave
	// (Reason: its digits written #, so that reasons that differ only in
	// a line or a count are one), the MaxReasons first in byte order; the
	// others are counted under OtherReasons.
	Why map[string]int `json:"undecided_why,omitempty"`
}

// MaxReasons bounds the reasons a CheckerStats keeps.
const MaxReasons = 8

// OtherReasons is the key of CheckerStats.Why that counts the reasons
// beyond the MaxReasons kept.
const OtherReasons = "(other reasons)"

// Reason is the key under which an undecided check's reason is counted:
// on one line, runs of digits written #, at most maxReason bytes. A
// reason is its own Reason.
func Reason(why string) string {
	var b strings.Builder
	digits := false
	for _, r := range strings.Join(strings.Fields(why), " ") {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		return "(no reason given)"
	}
	if len(s) > maxReason {
		// The ellipsis within the bound: a reason is its own Reason.
		cut := maxReason - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

const maxReason = 160

// addWhy counts n undecided test cases for reason. The MaxReasons reasons
// first in byte order are kept, whatever order they come in (and however
// the test cases were split among workers or shards): a reason with
// MaxReasons before it is not among them.
func (c *CheckerStats) addWhy(reason string, n int) {
	if c.Why == nil {
		c.Why = map[string]int{}
	}
	if reason == OtherReasons {
		c.Why[OtherReasons] += n
		return
	}
	if _, ok := c.Why[reason]; ok {
		c.Why[reason] += n
		return
	}
	c.Why[reason] = n
	kept := len(c.Why)
	if _, ok := c.Why[OtherReasons]; ok {
		kept--
	}
	if kept <= MaxReasons {
		return
	}
	// One too many: the last in byte order goes to the others.
	last := ""
	for k := range c.Why {
		if k != OtherReasons && k > last {
			last = k
		}
	}
	c.Why[OtherReasons] += c.Why[last]
	delete(c.Why, last)
}

// CheckOutcome is what one checker concluded on one test case, as the
// journal keeps it.
type CheckOutcome struct {
	Checker   string `json:"checker"`
	Failed    bool   `json:"failed,omitempty"`
	Undecided bool   `json:"undecided,omitempty"`
	// Why is the reason of an undecided checker (Reason).
	Why string `json:"why,omitempty"`
}

// Add counts the outcomes of the checkers of one checked test case.
func (s *RelationStats) Add(outs []CheckOutcome) {
	if outs == nil {
		return
	}
	s.Checked++
	if s.Checkers == nil {
		s.Checkers = map[string]CheckerStats{}
	}
	for _, o := range outs {
		c := s.Checkers[o.Checker]
		switch {
		case o.Undecided:
			c.Undecided++
			c.addWhy(Reason(o.Why), 1)
		case o.Failed:
			c.Decided++
			c.Failed++
		default:
			c.Decided++
		}
		s.Checkers[o.Checker] = c
	}
}

// Merge adds the counts of other, of another shard.
func (s *RelationStats) Merge(other RelationStats) {
	s.TestCases += other.TestCases
	s.Findings += other.Findings
	s.Checked += other.Checked
	for name, o := range other.Checkers {
		if s.Checkers == nil {
			s.Checkers = map[string]CheckerStats{}
		}
		c := s.Checkers[name]
		c.Decided += o.Decided
		c.Failed += o.Failed
		c.Undecided += o.Undecided
		for _, why := range slices.Sorted(maps.Keys(o.Why)) {
			c.addWhy(why, o.Why[why])
		}
		s.Checkers[name] = c
	}
}

// Undecided counts the checks of the relation that could not decide.
func (s RelationStats) Undecided() int {
	n := 0
	for _, c := range s.Checkers {
		n += c.Undecided
	}
	return n
}

// Timing is the time spent in each phase, summed over workers.
type Timing struct {
	MutationNS  int64 `json:"mutation_ns"`
	TranspileNS int64 `json:"transpilation_ns"`
	CheckNS     int64 `json:"checking_ns"`
	WallNS      int64 `json:"wall_ns"`
}

// SeedStats counts what happened to the seeds of a campaign.
//
// With flags, each counts a seed under a combination: a seed rejected
// under one is listed as "NAME (COMBINATION)".
type SeedStats struct {
	Total            int      `json:"total"`
	Rejected         []string `json:"rejected,omitempty"`         // seeds the transpiler refused (skipped)
	Nondeterministic []string `json:"nondeterministic,omitempty"` // seeds whose base output changed between runs
	Crashed          []string `json:"crashed,omitempty"`          // seeds whose base run crashed or timed out
	// Skipped lists the seeds that a relation could not work on, with
	// why: the other relations, and the other seeds of that relation,
	// went on.
	Skipped []SeedSkip `json:"skipped,omitempty"`
}

// SeedSkip is a seed that relations could not work on, for one reason:
// finding the spots failed (a seed the relation's parser rejects), or
// deriving a follow-up did (a template that fails on this seed). The
// seed is skipped for those relations only; the campaign goes on.
type SeedSkip struct {
	Seed      string   `json:"seed"`
	Flags     string   `json:"flags,omitempty"` // the combination of flags, as Finding.Flags
	Relations []string `json:"relations"`
	// Cases counts the test cases of the plan that were skipped, their
	// follow-up not derived; 0 when the spots could not be found, so that
	// no test case of the seed was planned for the relations.
	Cases int `json:"cases,omitempty"`
	// Message says what failed, with its file:line:col: in the seed, and
	// in the relation's file for a template.
	Message string `json:"message"`
}

// Name is the seed's name, with its combination of flags in parentheses
// when it has one.
func (s *SeedSkip) Name() string {
	if s.Flags != "" {
		return s.Seed + " (" + s.Flags + ")"
	}
	return s.Seed
}

// SortSkips sorts skips by seed, combination of flags, then message, and
// makes one entry of those of a seed with the same message (the relations
// of one parser that rejects the seed).
func SortSkips(skips []SeedSkip) []SeedSkip {
	slices.SortStableFunc(skips, func(a, b SeedSkip) int {
		return cmp.Or(strings.Compare(a.Seed, b.Seed), strings.Compare(a.Flags, b.Flags), strings.Compare(a.Message, b.Message))
	})
	var out []SeedSkip
	for _, s := range skips {
		if n := len(out); n > 0 && out[n-1].Seed == s.Seed && out[n-1].Flags == s.Flags && out[n-1].Message == s.Message {
			out[n-1].Relations = append(out[n-1].Relations, s.Relations...)
			out[n-1].Cases += s.Cases
			continue
		}
		s.Relations = slices.Clone(s.Relations)
		out = append(out, s)
	}
	for i := range out {
		slices.Sort(out[i].Relations)
		out[i].Relations = slices.Compact(out[i].Relations)
	}
	return out
}

// CaseSummary counts the test cases run on one seed, under one
// combination of flags, under one relation, and the findings among them.
type CaseSummary struct {
	Seed      string `json:"seed"`            // the seed file name, as in Finding.SeedFile
	Flags     string `json:"flags,omitempty"` // the combination of flags, as in Finding.Flags
	Relation  string `json:"relation"`
	TestCases int    `json:"test_cases"`
	Findings  int    `json:"findings"`
}

// Group is a set of findings with the same signature.
type Group struct {
	Signature string `json:"signature"`
	Kind      Kind   `json:"kind"`
	Relation  string `json:"relation"`
	Checker   string `json:"checker,omitempty"`
	File      string `json:"file,omitempty"`     // the example's output file
	FileKey   string `json:"file_key,omitempty"` // the signature's file key, when it is not File
	// Title names the group for people: relation, checker (or kind), file
	// key and the example's file; no two groups of a report share one.
	Title string `json:"title"`
	// Differs says, for a group whose title would otherwise differ from
	// another's by the example's file at most, how its findings depart
	// from the prediction (see signature.Differs); for rejected
	// follow-ups, always, their diagnostic.
	Differs string `json:"differs,omitempty"`
	Count   int    `json:"count"`
	// Flags are the combinations of flags its findings ran under, in
	// the order of the campaign's combinations; none without flags.
	Flags    []string `json:"flags,omitempty"`
	Example  string   `json:"example"`  // ID of the smallest finding of the group
	Findings []string `json:"findings"` // IDs, in case order
	// Counted is how many of the findings are counted only, without a
	// bundle or evidence (see Finding.Counted).
	Counted int `json:"counted,omitempty"`
	// Candidate is the ID of the finding with the smallest follow-up
	// among those that came after the group had its bundles, when it is
	// smaller than every bundled one (see Finding.Candidate).
	Candidate string `json:"candidate,omitempty"`
	// Flaky counts the test cases whose first run failed with the
	// group's signature but whose re-runs did not all fail the same way
	// (counted in nondeterministic_cases, not as findings): a group with
	// flaky cases may owe its findings to a nondeterministic transpiler.
	Flaky int `json:"flaky,omitempty"`
}

// Report is the outcome of a campaign (or of merged shards).
type Report struct {
	Tool   string `json:"tool"`
	Mode   string `json:"mode"` // "mcp" or "fuzz"
	Seed   uint64 `json:"seed"`
	Config string `json:"config,omitempty"` // the configuration file, as given
	Shard  string `json:"shard,omitempty"`  // "i/n" when sharded
	// Campaign identifies the campaign (a hash of what decides its
	// results, the shard left out): the same for every shard of one
	// campaign, so that merge refuses shards of different ones.
	Campaign string `json:"campaign,omitempty"`
	// Release is the transpiler's release, as its version command
	// printed it; "" when the configuration gives none.
	Release string `json:"release,omitempty"`
	// Flags are the combinations of flags the campaign runs each seed
	// under (target=es2022,module=esnext), none without flags.
	Flags          []string                 `json:"flags,omitempty"`
	TestCases      int                      `json:"test_cases"`
	TranspilerRuns int                      `json:"transpiler_runs"`
	Seeds          SeedStats                `json:"seeds"`
	Findings       []Finding                `json:"findings"`
	Groups         []Group                  `json:"groups"`
	ByRelation     map[string]RelationStats `json:"by_relation"`
	Cases          []CaseSummary            `json:"cases,omitempty"` // per seed × relation
	// NondeterministicCases counts the test cases whose follow-up failed
	// but did not fail the same way on every re-run, or whose base did not
	// give its output again: the transpiler's nondeterminism, recorded
	// instead of a finding.
	NondeterministicCases int `json:"nondeterministic_cases,omitempty"`
	// RecheckRuns counts the transpiler runs that confirmed a failure (a
	// follow-up and its base run again, a base that crashed run again),
	// apart from TranspilerRuns.
	RecheckRuns int `json:"recheck_runs,omitempty"`
	// WorkerRestarts counts the persistent worker processes killed and
	// replaced because they timed out, died or broke the protocol;
	// WorkerStaleResponses the extra answers to earlier requests that
	// were discarded. Both are of this session of the campaign.
	WorkerRestarts       int    `json:"worker_restarts,omitempty"`
	WorkerStaleResponses int    `json:"worker_stale_responses,omitempty"`
	Timing               Timing `json:"timing"`
	Stopped              string `json:"stopped,omitempty"` // why the campaign ended: "budget", "time", "interrupted", "error"
	// Error is what stopped the campaign when Stopped is "error".
	Error string `json:"error,omitempty"`
	// MaxCases is the campaign's budget of test cases (0: none), over all
	// its shards.
	MaxCases int `json:"max_cases,omitempty"`
	// BundlesPerGroup is how many findings of each group, the first in
	// plan order, have a bundle (the campaign's bundles_per_group): the
	// others are counted (Finding.Counted), but for a group's candidate.
	// 0 (a report of an earlier mcpt): every finding has one.
	BundlesPerGroup int `json:"bundles_per_group,omitempty"`
	// Incomplete lists the shards of a merged report that did not run to
	// their end (merge --partial): what the report lacks.
	Incomplete []IncompleteShard `json:"incomplete,omitempty"`
}

// IncompleteShard is a shard merged before it ran to its end: interrupted
// (or broken) and not resumed.
type IncompleteShard struct {
	Shard     string `json:"shard"`
	Dir       string `json:"dir"`
	Stopped   string `json:"stopped"`    // "interrupted" or "error"
	TestCases int    `json:"test_cases"` // the test cases it ran
}

// Sort puts findings in case order; the groups are signature.Group's.
func (r *Report) Sort() {
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		if a.Case != b.Case {
			return a.Case - b.Case
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
}

// OrderGroupFlags puts the combinations of flags each group lists in the
// order of the campaign's (r.Flags), those it does not know last.
func (r *Report) OrderGroupFlags() {
	pos := map[string]int{}
	for i, f := range r.Flags {
		pos[f] = i
	}
	at := func(f string) int {
		if i, ok := pos[f]; ok {
			return i
		}
		return len(pos)
	}
	for i := range r.Groups {
		slices.SortStableFunc(r.Groups[i].Flags, func(a, b string) int { return at(a) - at(b) })
	}
}

// Load reads a report.json.
func Load(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// Decode reads a report.json from rd as json.Unmarshal reads it, but its
// findings one at a time, so that the text of a report of tens of
// thousands of findings is never held whole: only what it decodes to.
func Decode(rd io.Reader) (*Report, error) {
	dec := json.NewDecoder(rd)
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("not a report: a JSON object expected, not %v", tok)
	}
	var findings []Finding
	rest := []byte{'{'} // the other fields, decoded at the end
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if !strings.EqualFold(key, "findings") {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			if len(rest) > 1 {
				rest = append(rest, ',')
			}
			k, _ := json.Marshal(key)
			rest = append(append(append(rest, k...), ':'), v...)
			continue
		}
		switch tok, err := dec.Token(); {
		case err != nil:
			return nil, err
		case tok == nil:
			findings = nil
			continue
		case tok != json.Delim('['):
			return nil, fmt.Errorf("the findings of a report: a JSON array expected, not %v", tok)
		}
		findings = []Finding{}
		for dec.More() {
			var f Finding
			if err := dec.Decode(&f); err != nil {
				return nil, err
			}
			findings = append(findings, f)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid data after the report")
	}
	var r Report
	if err := json.Unmarshal(append(rest, '}'), &r); err != nil {
		return nil, err
	}
	r.Findings = findings
	return &r, nil
}

// Save writes the report as indented JSON, atomically, the same bytes
// as json.MarshalIndent(r, "", "  ") and a newline, but for the findings:
// each is written on a line of its own, unindented (a finding's lines
// were most of the report of a long campaign, and one line is one
// finding to grep), and a finding with a bundle is written lean
// (Finding.Lean: the bundle keeps its whole-file evidence). The findings
// are encoded one at a time, so that the text of a report of tens of
// thousands of findings is never held whole.
func (r *Report) Save(path string) error {
	return WriteAtomic(path, r.encode)
}

// findingsKey is the findings field of the indented encoding of a
// report, empty: the place of the findings, encoded one by one.
const findingsKey = "\n  \"findings\": []"

func (r *Report) encode(w io.Writer) error {
	if len(r.Findings) == 0 {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	rest := *r
	rest.Findings = []Finding{}
	b, err := json.MarshalIndent(&rest, "", "  ")
	if err != nil {
		return err
	}
	// The key comes before every field that holds text from elsewhere,
	// and a string never holds its quotes unescaped.
	head, tail, ok := bytes.Cut(b, []byte(findingsKey))
	if !ok {
		return fmt.Errorf("encoding the report: no findings field")
	}
	if _, err := w.Write(append(head, findingsKey[:len(findingsKey)-1]...)); err != nil {
		return err
	}
	for i := range r.Findings {
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		lean := r.Findings[i].Lean()
		fb, err := json.Marshal(&lean)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(fb); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, "\n  ]"); err != nil {
		return err
	}
	_, err = w.Write(append(tail, '\n'))
	return err
}

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it over path, so that readers see the old or the new content and
// never a half-written file.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic is WriteFileAtomic for content that write writes, through a
// buffer, so that it need not be held whole; when write fails, path is
// left as it was.
func WriteAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// The roles of a transpiler run, as Finding.Role names them.
const (
	RoleBase     = "base"
	RoleFollowUp = "follow-up"
)
