package result

import (
	"fmt"
	"strings"
)

// Tally counts findings by what they are: the test cases that failed, and
// in them the failed checkers and the failed runs. One test case can fail
// several checkers, so findings outnumber failing test cases.
type Tally struct {
	Cases int // test cases with at least one finding
	// Bases counts the findings of base runs (crashes and timeouts of a
	// seed before any mutation): no test case, one per seed.
	Bases      int
	Checkers   int // failed consistency checkers (oracle findings)
	Crashes    int
	Timeouts   int
	Rejections int // follow-ups rejected while their base was accepted
}

// TallyOf counts fs.
func TallyOf(fs []Finding) Tally {
	var t Tally
	type caseKey struct {
		index int
		seed  uint64
	}
	seen := map[caseKey]bool{}
	for i := range fs {
		f := &fs[i]
		if f.Case < 0 && f.Role == RoleBase {
			t.Bases++
		} else if k := (caseKey{f.Case, f.CaseSeed}); !seen[k] {
			seen[k] = true
			t.Cases++
		}
		switch f.Kind {
		case Oracle:
			t.Checkers++
		case Crash:
			t.Crashes++
		case Timeout:
			t.Timeouts++
		default:
			t.Rejections++
		}
	}
	return t
}

// Findings is the number of findings counted.
func (t Tally) Findings() int { return t.Checkers + t.Crashes + t.Timeouts + t.Rejections }

// What says what the findings are: "62 failed checkers, 2 crashes".
func (t Tally) What() string {
	var parts []string
	for _, p := range []struct {
		n          int
		one, other string
	}{
		{t.Checkers, "failed checker", "failed checkers"},
		{t.Crashes, "crash", "crashes"},
		{t.Timeouts, "timeout", "timeouts"},
		{t.Rejections, "rejected follow-up", "rejected follow-ups"},
	} {
		switch {
		case p.n == 1:
			parts = append(parts, "1 "+p.one)
		case p.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.other))
		}
	}
	return strings.Join(parts, ", ")
}

// String is "32 test cases with findings (64 failed checkers)", or "no
// findings".
func (t Tally) String() string {
	if t.Findings() == 0 {
		return "no findings"
	}
	cases := fmt.Sprintf("%d test cases with findings", t.Cases)
	if t.Cases == 1 {
		cases = "1 test case with findings"
	}
	bases := fmt.Sprintf("%d seeds whose base run failed", t.Bases)
	if t.Bases == 1 {
		bases = "1 seed whose base run failed"
	}
	switch {
	case t.Bases == 0:
		return fmt.Sprintf("%s (%s)", cases, t.What())
	case t.Cases == 0:
		return fmt.Sprintf("%s (%s)", bases, t.What())
	}
	return fmt.Sprintf("%s and %s (%s)", cases, bases, t.What())
}
