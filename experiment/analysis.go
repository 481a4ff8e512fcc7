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
	a := &Analysis{MCPOnly: []FaultNote{}}
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
		a.Summary = append(a.Summary, ModeSummary{Mode: mode, Sessions: len(runs),
			TranspilerRuns: stat(runs), InjectedFaults: stat(injected), Crashes: stat(crashes), OracleFailures: stat(oracle)})
	}

	byKey := map[int]map[string]*Session{}
	for i := range sessions {
		s := &sessions[i]
		if byKey[s.Session] == nil {
			byKey[s.Session] = map[string]*Session{}
		}
		byKey[s.Session][s.Mode] = s
	}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		mcp, fuzz := byKey[k][MCP], byKey[k][Fuzz]
		if mcp == nil || fuzz == nil {
			continue
		}
		r := RunRatio{Session: k, MCP: mcp.TranspilerRuns, Fuzz: fuzz.TranspilerRuns}
		if r.MCP > 0 {
			r.Ratio = float64(r.Fuzz) / float64(r.MCP)
		}
		a.Runs = append(a.Runs, r)
	}

	// Faults detected by MCP and not by fuzz, with how and where.
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
			seen := map[int]bool{}
			for _, d := range s.Confirmed {
				if !seen[d.Fault] {
					seen[d.Fault] = true
					if mcpHow[d.Fault] == "" || strings.HasPrefix(mcpHow[d.Fault], "crash") {
						mcpHow[d.Fault] = "oracle " + d.Relation + "/" + d.Checker
					}
				}
			}
			for _, f := range s.Crashed {
				if !seen[f] {
					seen[f] = true
					if mcpHow[f] == "" {
						mcpHow[f] = "crash"
					}
				}
			}
			for f := range seen {
				mcpSessions[f] = append(mcpSessions[f], s.Session)
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(mcpHow)) {
		if fuzzDetected[f] {
			continue
		}
		n := note(m, f)
		n.How = mcpHow[f]
		n.Sessions = sortedUnique(mcpSessions[f])
		a.MCPOnly = append(a.MCPOnly, n)
	}

	a.Score = score(sessions, relations, m)
	return a
}

func score(sessions []Session, relations []string, m *faultinject.Manifest) Score {
	executed := map[int][]int{} // fault → MCP sessions that executed it
	oracle, crash, reject := map[int]bool{}, map[int]bool{}, map[int]bool{}
	activated := map[string]map[int]bool{}
	detected := map[string]map[int]bool{}
	for _, r := range relations {
		activated[r], detected[r] = map[int]bool{}, map[int]bool{}
	}
	for _, s := range sessions {
		if s.Mode != MCP {
			continue
		}
		for _, f := range s.Executed {
			executed[f] = append(executed[f], s.Session)
		}
		for _, f := range s.Crashed {
			crash[f] = true
		}
		for _, f := range s.Rejected {
			reject[f] = true
		}
		for _, d := range s.Confirmed {
			oracle[d.Fault] = true
			if detected[d.Relation] == nil {
				activated[d.Relation], detected[d.Relation] = map[int]bool{}, map[int]bool{}
			}
			detected[d.Relation][d.Fault] = true
		}
		for r, fs := range s.Activated {
			if activated[r] == nil {
				activated[r], detected[r] = map[int]bool{}, map[int]bool{}
			}
			for _, f := range fs {
				activated[r][f] = true
			}
		}
	}

	sc := Score{Executed: len(executed), Relations: []RelationScore{}, UndetectedFaults: []FaultNote{}}
	for f := range executed {
		switch {
		case oracle[f]:
			sc.Oracle++
		case crash[f]:
			sc.Crash++
		case reject[f]:
			sc.Rejection++
		default:
			sc.Undetected++
			n := note(m, f)
			n.Sessions = sortedUnique(executed[f])
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

	for r := range activated {
		rs := RelationScore{Relation: r, Activated: len(activated[r]), Detected: len(detected[r]), Alone: []int{}}
		for f := range detected[r] {
			alone := true
			for other, d := range detected {
				if other != r && d[f] {
					alone = false
					break
				}
			}
			if alone {
				rs.Alone = append(rs.Alone, f)
			}
		}
		slices.Sort(rs.Alone)
		sc.Relations = append(sc.Relations, rs)
	}
	slices.SortFunc(sc.Relations, func(a, b RelationScore) int {
		return cmp.Or(cmp.Compare(b.Detected, a.Detected), cmp.Compare(len(b.Alone), len(a.Alone)), cmp.Compare(a.Relation, b.Relation))
	})
	return sc
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
