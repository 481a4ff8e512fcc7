package report

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

const trafficInput = `logic TrafficLight

declarations
  states Red, Green, Yellow
  command EnableCamera, DisableCamera
`

// TestReversedInBase finds the demo fault (enumerators in the reverse of
// their declaration order) in o itself, and nothing in an o in order or
// with only two names swapped.
func TestReversedInBase(t *testing.T) {
	reversed := "typedef enum {\n    TRAFFIC_LIGHT_STATE_YELLOW,\n    TRAFFIC_LIGHT_STATE_GREEN,\n    TRAFFIC_LIGHT_STATE_RED,\n} traffic_light_state_t;\n"
	got := reversedInBase("traffic_light_types.h", reversed, trafficInput)
	want := "traffic_light_types.h in o lists Yellow, Green, Red (lines 2–4), the reverse of their order in the input (Red, Green, Yellow): the fault shows in the base output, before any change."
	if got != want {
		t.Errorf("reversed enum:\n got %q\nwant %q", got, want)
	}
	table := "static const char *const traffic_light_state_names[] = {\n    \"Yellow\",\n    \"Green\",\n    \"Red\",\n};\n"
	if got := reversedInBase("t.c", table, trafficInput); !strings.Contains(got, "in o lists Yellow, Green, Red (lines 2–4)") {
		t.Errorf("reversed name table: %q", got)
	}
	for name, o := range map[string]string{
		"in order":  "    TRAFFIC_LIGHT_STATE_RED,\n    TRAFFIC_LIGHT_STATE_GREEN,\n    TRAFFIC_LIGHT_STATE_YELLOW,\n",
		"two only":  "    TRAFFIC_LIGHT_STATE_GREEN,\n    TRAFFIC_LIGHT_STATE_RED,\n",
		"unlike":    "    TRAFFIC_LIGHT_STATE_YELLOW,\n    x = GREEN;\n    TRAFFIC_LIGHT_STATE_RED,\n",
		"no names":  "int main(void) {\n    return 0;\n}\n",
		"substring": "    REDDISH,\n    GREENISH,\n    YELLOWISH,\n",
	} {
		if got := reversedInBase("f", o, trafficInput); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// TestReadFinding checks the words of each kind of finding: none of them
// says that o′ is wrong, and a fault seen in o, or a base run that
// failed, is said to be in o.
func TestReadFinding(t *testing.T) {
	o := "a\nb\n"
	for _, c := range []struct {
		name   string
		f      result.Finding
		ev     evidence
		want   []string
		inBase bool
	}{
		{"equivalence", result.Finding{Kind: result.Oracle, Checker: "eq", File: "x.h", Expected: o, Actual: "a\nc\n"},
			evidence{o: o, okO: true, side: buildSideBySide(o, "a\nc\n", o, true)},
			[]string{"must hold it byte for byte as o does (checker eq)", "o′ may be wrong, or o may be wrong already"}, false},
		{"prediction", result.Finding{Kind: result.Oracle, Checker: "d", File: "x.h", Expected: "a\nn\nb\n", Actual: "n\na\nb\n"},
			evidence{o: o, okO: true, side: buildSideBySide(o, "n\na\nb\n", "a\nn\nb\n", true)},
			[]string{"predicts x.h in o′ from o", "1 line of o′ not predicted, 1 predicted line missing from o′", "built on o"}, false},
		{"derived", result.Finding{Kind: result.Oracle, Checker: "sib", File: "x.h", Message: "x.h in o′ lacks 1 line", Diff: "-a\n+c\n"},
			evidence{o: o, okO: true},
			[]string{"The checker sib derives from o", "x.h in o′ lacks 1 line"}, false},
		{"reversed in o", result.Finding{Kind: result.Oracle, Checker: "d", File: "t.h", Expected: "x", Actual: "y"},
			evidence{o: "    TRAFFIC_LIGHT_STATE_YELLOW,\n    TRAFFIC_LIGHT_STATE_GREEN,\n    TRAFFIC_LIGHT_STATE_RED,\n", okO: true, input: trafficInput},
			[]string{"need not mean that o′ is wrong"}, true},
		{"base crash", result.Finding{Kind: result.Crash, Role: result.RoleBase, Signal: "SIGSEGV"},
			evidence{}, []string{"crashed (signal SIGSEGV) on i.", "no change had been made yet"}, true},
		{"follow-up timeout", result.Finding{Kind: result.Timeout, Role: result.RoleFollowUp},
			evidence{}, []string{"did not finish within the time limit on i′", "brought the fault out"}, false},
		{"rejected", result.Finding{Kind: result.RejectedFollowUp, ExitCode: 1},
			evidence{}, []string{"rejected i′ (exit status 1)", "mcpt validate"}, false},
	} {
		r := readFinding(&c.f, c.ev)
		all := strings.Join([]string{r.Expects, r.Found, r.Means, r.InBase}, "\n")
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: %q lacks %q", c.name, all, w)
			}
		}
		if (r.InBase != "") != c.inBase {
			t.Errorf("%s: InBase %q", c.name, r.InBase)
		}
		if strings.Contains(all, "o′ is wrong") && !strings.Contains(all, "need not mean that o′ is wrong") {
			t.Errorf("%s blames o′: %q", c.name, all)
		}
	}
}

// TestPageSet gives every group's example a page and no other finding
// one, and no page to an ID that is no safe file name, nor to a finding
// counted without a bundle.
func TestPageSet(t *testing.T) {
	var big []string
	for i := range 30 {
		big = append(big, fmt.Sprintf("c%06d-r", i))
	}
	groups := []result.Group{
		{Example: big[len(big)-1], Findings: big},
		{Example: "../evil", Findings: []string{"../evil", "ok-1", "counted-2"}},
		{Example: "ok-3", Findings: []string{"ok-3", "ok-4"}},
		{Example: "counted-5", Findings: []string{"counted-5"}},
	}
	set := pageSet(groups, map[string]*result.Finding{"counted-2": {ID: "counted-2", Counted: true}, "counted-5": {ID: "counted-5", Counted: true}})
	want := map[string]bool{big[len(big)-1]: true, "ok-3": true}
	if !reflect.DeepEqual(set, want) {
		t.Errorf("pages %v, want %v", set, want)
	}
}

// naiveLast is nameIndex.last as it was: every start before every end.
func naiveLast(ix nameIndex, line string) (start, end, name int, ok bool) {
	for e := len(line); e > 0; e-- {
		if !isWordByte(line[e-1]) || line[e-1] == '_' || e < len(line) && isWordByte(line[e]) && line[e] != '_' {
			continue
		}
		for s := 0; s < e; s++ {
			if line[s] == '_' || s > 0 && isWordByte(line[s-1]) && line[s-1] != '_' {
				continue
			}
			if n, found := ix.forms[line[s:e]]; found {
				return s, e, n, true
			}
		}
	}
	return 0, 0, 0, false
}

// TestLastAsEveryStart: last, which looks only at the starts a form can
// begin at, finds what looking at every start found, on lines made of the
// names' forms, their parts, underscores and punctuation.
func TestLastAsEveryStart(t *testing.T) {
	ix := inputNames(trafficInput + "  timer Light_State_X, a__b, B2\n")
	pieces := []string{"TRAFFIC", "LIGHT", "STATE", "RED", "red", "Green", "yellow", "_", "__", " ", ",", "(", "x", "Light", "a", "b", "B2", "enable_camera", "ENABLE", "CAMERA", "9"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := b.String()
		s1, e1, n1, ok1 := ix.last(line)
		s2, e2, n2, ok2 := naiveLast(ix, line)
		if s1 != s2 || e1 != e2 || n1 != n2 || ok1 != ok2 {
			t.Fatalf("%q: last %d %d %d %v, every start %d %d %d %v", line, s1, e1, n1, ok1, s2, e2, n2, ok2)
		}
	}
}

// BenchmarkReversedInBaseLongLine: an output line of 60 KB of parts of
// words (x_x_…), the base of a finding the report reads; before, this
// took minutes.
func BenchmarkReversedInBaseLongLine(b *testing.B) {
	o := "typedef enum {\n" + strings.Repeat("x_", 30000) + "RED\n} t;\n"
	for b.Loop() {
		reversedInBase("t.h", o, trafficInput)
	}
}
