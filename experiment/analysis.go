package experiment

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/faultinject"
)

// The two kinds of testing session.
const (
	MCP  = "mcp"  // MCP-Tester: relations and their consistency checkers
	Fuzz = "fuzz" // the ablation: the same picks and runs, no checks
)

// Session is one testing session: a row of Figure 4 of the paper, with the
// faults behind each of its numbers.
type Session struct {
	Session int    `json:"session"` // k, counted from 1
	Mode    string `json:"mode"`    // MCP or Fuzz
	Seed    uint64 `json:"seed"`    // the campaign seed, shared by the two modes of a session

	TestCases      int `json:"test_cases"`
	TranspilerRuns int `json:"transpiler_runs"` // base and follow-up runs
	InjectedFaults int `json:"injected_faults"` // distinct faults activated by some follow-up run
	Crashes        int `json:"crashes"`         // distinct faults whose activation crashed or hung the transpiler
	OracleFailures int `json:"oracle_failures"` // distinct faults an oracle revealed, confirmed
	// Rejections counts the faults whose activation made the transpiler
	// reject a follow-up input (whose base it accepted).
	Rejections int `json:"rejections"`
	// Unconfirmed counts the faults that an oracle finding pointed at but
	// that the confirmation step did not confirm.
	Unconfirmed int `json:"unconfirmed"`
	// Unattributed counts the oracle findings whose follow-up run activated
	// no fault: false alarms of a relation, or bugs of the transpiler
	// itself.
	Unattributed int     `json:"unattributed"`
	Seconds      float64 `json:"seconds"`       // wall time of the campaign, confirmation excluded
	Dir          string  `json:"dir,omitempty"` // the campaign's output directory

	Executed          []int       `json:"executed_faults"`
	Crashed           []int       `json:"crash_faults"`
	Rejected          []int       `json:"rejection_faults"`
	Confirmed         []Detection `json:"confirmed"`
	UnconfirmedFaults []int       `json:"unconfirmed_faults"`
	// Activated lists, per relation, the faults that its follow-up runs
	// activated.
	Activated map[string][]int `json:"activated_by_relation"`
}

// Detection is a fault that a relation's consistency checker revealed and
// the confirmation step confirmed.
type Detection struct {
	Fault    int    `json:"fault"`
	Relation string `json:"relation"`
	Checker  string `json:"checker"`
	Finding  string `json:"finding"` // the finding's id in the session's report
}

// Tally sets the counts of s from its fault lists.
func (s *Session) Tally() {
	s.InjectedFaults = len(s.Executed)
	s.Crashes = len(s.Crashed)
	s.Rejections = len(s.Rejected)
	s.Unconfirmed = len(s.UnconfirmedFaults)
	s.OracleFailures = len(s.confirmedFaults())
}

func (s *Session) confirmedFaults() map[int]bool {
	set := map[int]bool{}
	for _, d := range s.Confirmed {
		set[d.Fault] = true
	}
	return set
}

// Stat is the median and the range of one column over the sessions of a
// mode.
type Stat struct {
	Median float64 `json:"median"`
	Min    int     `json:"min"`
	Max    int     `json:"max"`
}

func (s Stat) String() string {
	if s.Min == s.Max {
		return fmt.Sprint(s.Min)
	}
	return fmt.Sprintf("%s (%d–%d)", trimFloat(s.Median), s.Min, s.Max)
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0")
}

func stat(xs []int) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med := float64(s[n/2])
	if n%2 == 0 {
		med = float64(s[n/2-1]+s[n/2]) / 2
	}
	return Stat{Median: med, Min: s[0], Max: s[n-1]}
}

// ModeSummary summarises the columns of Figure 4 over the sessions of one
// mode.
type ModeSummary struct {
	Mode           string `json:"mode"`
	Sessions       int    `json:"sessions"`
	TranspilerRuns Stat   `json:"transpiler_runs"`
	InjectedFaults Stat   `json:"injected_faults"`
	Crashes        Stat   `json:"crashes"`
	OracleFailures Stat   `json:"oracle_failures"`
}

// RunRatio compares the transpiler runs of the two modes of a session
// (RQ2: the cost of checking the relations).
type RunRatio struct {
	Session int     `json:"session"`
	MCP     int     `json:"mcp"`
	Fuzz    int     `json:"fuzz"`
	Ratio   float64 `json:"ratio"` // Fuzz / MCP
}

// FaultNote describes a fault for people: its site in the original source,
// the direction it forces, and how and in which sessions it was detected.
type FaultNote struct {
	Fault     int    `json:"fault"`
	Pos       string `json:"pos,omitempty"` // file:line:col
	Construct string `json:"construct,omitempty"`
	Func      string `json:"func,omitempty"`
	Expr      string `json:"expr,omitempty"`
	Force     bool   `json:"force"`
	How       string `json:"how,omitempty"`      // "oracle add-timer/header-equal", "crash"
	Sessions  []int  `json:"sessions,omitempty"` // the sessions that detected it, or executed it
	// Visible, for an undetected fault after Score.Triage, says whether
	// forcing it changes the transpiler's outcome on some seed.
	Visible *bool `json:"visible,omitempty"`
}

func (n FaultNote) String() string {
	if n.Pos == "" {
		return fmt.Sprintf("fault %d", n.Fault)
	}
	return fmt.Sprintf("fault %d: %s %s %q forced %t", n.Fault, n.Pos, n.Construct, n.Expr, n.Force)
}

func note(m *faultinject.Manifest, id int) FaultNote {
	n := FaultNote{Fault: id}
	if m == nil {
		return n
	}
	f, s, ok := m.Fault(id)
	if !ok {
		return n
	}
	n.Pos, n.Construct, n.Func, n.Expr, n.Force = s.Pos, string(s.Construct), s.Func, s.Expr, f.Force
	return n
}

// RelationScore is what one relation contributed over the MCP sessions.
type RelationScore struct {
	Relation  string `json:"relation"`
	Activated int    `json:"activated"` // distinct faults its follow-up runs activated
	Detected  int    `json:"detected"`  // distinct faults its checkers revealed, confirmed
	Alone     []int  `json:"alone"`     // the detected faults that no other relation detected
}

// Score rates the relation set on the faults executed in the MCP sessions:
// each executed fault is counted once, under the first of oracle, crash,
// rejection that detected it in some session, or as undetected.
type Score struct {
	Executed      int             `json:"executed"`
	Oracle        int             `json:"oracle"`
	Crash         int             `json:"crash"`
	Rejection     int             `json:"rejection"`
	Undetected    int             `json:"undetected"`
	OracleShare   float64         `json:"oracle_share"`   // Oracle / Executed
	DetectedShare float64         `json:"detected_share"` // (Executed − Undetected) / Executed
	Relations     []RelationScore `json:"relations"`
	// UndetectedFaults lists the undetected faults, most often executed
	// first, and after a triage those that change some outcome first.
	UndetectedFaults []FaultNote `json:"undetected_faults"`
	// Triaged says whether the undetected faults were run on the seeds;
	// Inert counts those that changed no seed's outcome.
	Triaged bool `json:"triaged"`
	Inert   int  `json:"inert"`
}

// Triage records, for the undetected faults, whether forcing each changes
// the outcome of some seed (visible maps fault ids to that; faults missing
// from it count as visible), and puts the visible ones first.
func (sc *Score) Triage(visible map[int]bool) {
	sc.Triaged, sc.Inert = true, 0
	for i := range sc.UndetectedFaults {
		n := &sc.UndetectedFaults[i]
		v, ok := visible[n.Fault]
		v = v || !ok
		n.Visible = &v
		if !v {
			sc.Inert++
		}
	}
	slices.SortStableFunc(sc.UndetectedFaults, func(a, b FaultNote) int {
		switch {
		case *a.Visible && !*b.Visible:
			return -1
		case !*a.Visible && *b.Visible:
			return 1
		}
		return 0
	})
}

// Analysis is what the sessions of an experiment add up to.
type Analysis struct {
	Summary []ModeSummary `json:"summary"`
	Runs    []RunRatio    `json:"fuzz_to_mcp_runs"`
	// MCPOnly are the faults that some MCP session detected (by an oracle or
	// a crash) and that no fuzz session detected.
	MCPOnly []FaultNote `json:"mcp_only"`
	Score   Score       `json:"score"`
}

// Analyze summarises sessions: per mode, per pair of sessions, the faults
// only MCP detected, and the score of the relations (named so that those
// that activated nothing are listed too). m, which may be nil, describes
// the faults.
func Analyze(sessions []Session, relations []string, m *faultinject.Manifest) *Analysis {
	return &Analysis{
		Summary: summarise(sessions),
		Runs:    runRatios(sessions),
		MCPOnly: mcpOnly(sessions, m),
		Score:   score(sessions, relations, m),
	}
}

// summarise gives the median and range of the counts of each mode's
// sessions; a mode without sessions is left out.
func summarise(sessions []Session) []ModeSummary {
	var summary []ModeSummary
	for _, mode := range []string{MCP, Fuzz} {
		var runs, injected, crashes, oracle []int
		for _, s := range sessions {
			if s.Mode == mode {
				runs = append(runs, s.TranspilerRuns)
				injected = append(injected, s.InjectedFaults)
				crashes = append(crashes, s.Crashes)
				oracle = append(oracle, s.OracleFailures)
			}
		}
		if len(runs) == 0 {
			continue
		}
		summary = append(summary, ModeSummary{Mode: mode, Sessions: len(runs),
			TranspilerRuns: stat(runs), InjectedFaults: stat(injected), Crashes: stat(crashes), OracleFailures: stat(oracle)})
	}
	return summary
}

// runRatios compares the transpiler runs of the fuzz and MCP campaigns of
// each session that has both, in session order.
func runRatios(sessions []Session) []RunRatio {
	byKey := map[int]map[string]*Session{}
	for i := range sessions {
		s := &sessions[i]
		if byKey[s.Session] == nil {
			byKey[s.Session] = map[string]*Session{}
		}
		byKey[s.Session][s.Mode] = s
	}
	var ratios []RunRatio
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		mcp, fuzz := byKey[k][MCP], byKey[k][Fuzz]
		if mcp == nil || fuzz == nil {
			continue
		}
		r := RunRatio{Session: k, MCP: mcp.TranspilerRuns, Fuzz: fuzz.TranspilerRuns}
		if r.MCP > 0 {
			r.Ratio = float64(r.Fuzz) / float64(r.MCP)
		}
		ratios = append(ratios, r)
	}
	return ratios
}

// mcpOnly lists the faults detected by MCP and not by fuzz, with how and
// in which sessions, in fault order.
func mcpOnly(sessions []Session, m *faultinject.Manifest) []FaultNote {
	fuzzDetected := map[int]bool{}
	mcpHow := map[int]string{}
	mcpSessions := map[int][]int{}
	for _, s := range sessions {
		switch s.Mode {
		case Fuzz:
			for _, f := range s.Crashed {
				fuzzDetected[f] = true
			}
		case MCP:
			for f := range mcpDetections(s, mcpHow) {
				mcpSessions[f] = append(mcpSessions[f], s.Session)
			}
		}
	}
	only := []FaultNote{}
	for _, f := range slices.Sorted(maps.Keys(mcpHow)) {
		if fuzzDetected[f] {
			continue
		}
		n := note(m, f)
		n.How = mcpHow[f]
		n.Sessions = sortedUnique(mcpSessions[f])
		only = append(only, n)
	}
	return only
}

// mcpDetections returns the faults the MCP session s detected and records
// in how the way each was detected: an oracle wins over a crash, and the
// first oracle finding wins over later ones.
func mcpDetections(s Session, how map[int]string) map[int]bool {
	seen := map[int]bool{}
	for _, d := range s.Confirmed {
		if !seen[d.Fault] {
			seen[d.Fault] = true
			if how[d.Fault] == "" || strings.HasPrefix(how[d.Fault], "crash") {
				how[d.Fault] = "oracle " + d.Relation + "/" + d.Checker
			}
		}
	}
	for _, f := range s.Crashed {
		if !seen[f] {
			seen[f] = true
			if how[f] == "" {
				how[f] = "crash"
			}
		}
	}
	return seen
}

// mcpTally is what the MCP sessions did to each fault.
type mcpTally struct {
	executed              map[int][]int // fault → MCP sessions that executed it
	oracle, crash, reject map[int]bool
	activated, detected   map[string]map[int]bool // relation → faults
}

// tallyMCP gathers the faults the MCP sessions executed, detected and
// rejected, and per relation those it activated and detected.
func tallyMCP(sessions []Session, relations []string) *mcpTally {
	t := &mcpTally{executed: map[int][]int{}, oracle: map[int]bool{}, crash: map[int]bool{}, reject: map[int]bool{},
		activated: map[string]map[int]bool{}, detected: map[string]map[int]bool{}}
	for _, r := range relations {
		t.addRelation(r)
	}
	for _, s := range sessions {
		if s.Mode != MCP {
			continue
		}
		for _, f := range s.Executed {
			t.executed[f] = append(t.executed[f], s.Session)
		}
		for _, f := range s.Crashed {
			t.crash[f] = true
		}
		for _, f := range s.Rejected {
			t.reject[f] = true
		}
		for _, d := range s.Confirmed {
			t.oracle[d.Fault] = true
			if t.detected[d.Relation] == nil {
				t.addRelation(d.Relation)
			}
			t.detected[d.Relation][d.Fault] = true
		}
		for r, fs := range s.Activated {
			if t.activated[r] == nil {
				t.addRelation(r)
			}
			for _, f := range fs {
				t.activated[r][f] = true
			}
		}
	}
	return t
}

func (t *mcpTally) addRelation(r string) {
	t.activated[r], t.detected[r] = map[int]bool{}, map[int]bool{}
}

func score(sessions []Session, relations []string, m *faultinject.Manifest) Score {
	t := tallyMCP(sessions, relations)
	sc := Score{Executed: len(t.executed), Relations: t.relationScores(), UndetectedFaults: []FaultNote{}}
	for f := range t.executed {
		switch {
		case t.oracle[f]:
			sc.Oracle++
		case t.crash[f]:
			sc.Crash++
		case t.reject[f]:
			sc.Rejection++
		default:
			sc.Undetected++
			n := note(m, f)
			n.Sessions = sortedUnique(t.executed[f])
			sc.UndetectedFaults = append(sc.UndetectedFaults, n)
		}
	}
	if sc.Executed > 0 {
		sc.OracleShare = float64(sc.Oracle) / float64(sc.Executed)
		sc.DetectedShare = float64(sc.Executed-sc.Undetected) / float64(sc.Executed)
	}
	slices.SortFunc(sc.UndetectedFaults, func(a, b FaultNote) int {
		return cmp.Or(cmp.Compare(len(b.Sessions), len(a.Sessions)), cmp.Compare(a.Fault, b.Fault))
	})
	return sc
}

// relationScores scores each relation, most detections first.
func (t *mcpTally) relationScores() []RelationScore {
	scores := []RelationScore{}
	for r := range t.activated {
		rs := RelationScore{Relation: r, Activated: len(t.activated[r]), Detected: len(t.detected[r]), Alone: []int{}}
		for f := range t.detected[r] {
			if t.detectedAlone(r, f) {
				rs.Alone = append(rs.Alone, f)
			}
		}
		slices.Sort(rs.Alone)
		scores = append(scores, rs)
	}
	slices.SortFunc(scores, func(a, b RelationScore) int {
		return cmp.Or(cmp.Compare(b.Detected, a.Detected), cmp.Compare(len(b.Alone), len(a.Alone)), cmp.Compare(a.Relation, b.Relation))
	})
	return scores
}

// detectedAlone says whether no relation other than r detected fault f.
func (t *mcpTally) detectedAlone(r string, f int) bool {
	for other, d := range t.detected {
		if other != r && d[f] {
			return false
		}
	}
	return true
}

func sortedSet(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sortedUnique(xs []int) []int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return slices.Compact(s)
}
