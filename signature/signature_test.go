package signature

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/result"
)

// enumHeader renders the start of a cllc types header for a logic prefix
// and the enumerators of its states; extra lines follow the states block.
func enumHeader(prefix string, states []string, extra ...string) string {
	P := strings.ToUpper(prefix)
	var b strings.Builder
	b.WriteString("#ifndef " + P + "_TYPES_H\n#define " + P + "_TYPES_H\n\n#include <stdbool.h>\n\ntypedef enum {\n")
	for _, s := range states {
		b.WriteString("    " + P + "_STATE_" + s + ",\n")
	}
	b.WriteString("} " + prefix + "_state_t;\n")
	b.WriteString("#define " + P + "_STATE_COUNT " + strconv.Itoa(len(states)) + "\n")
	b.WriteString("const char *" + prefix + "_state_name(" + prefix + "_state_t v);\n")
	for _, l := range extra {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n#endif\n")
	return b.String()
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func oracleFinding(prefix, fresh string, expected, actual string) *result.Finding {
	file := prefix + "_types.h"
	return &result.Finding{
		Kind: result.Oracle, Relation: "augment-enumeration",
		Checker: "difference:" + file, File: file, FileKey: "*_types.h",
		Expected: expected, Actual: actual,
		Bindings: map[string]string{"N": fresh},
	}
}

// The reverse-enums fault met at two spots of two seeds with different
// logic names, list lengths and fresh names.
func reverseEnumsFindings() (a, b *result.Finding) {
	exp := []string{"RED", "ZQ_KELMOR", "GREEN", "YELLOW"}
	a = oracleFinding("traffic_light", "ZqKelmor",
		enumHeader("traffic_light", exp), enumHeader("traffic_light", reversed(exp)))
	exp2 := []string{"IDLE", "FILLING", "DRAINING", "ZQ_WUBFIN", "LOCKED"}
	b = oracleFinding("pump", "ZqWubfin",
		enumHeader("pump", exp2), enumHeader("pump", reversed(exp2)))
	return a, b
}

func TestSignatureSameFaultSameSignature(t *testing.T) {
	a, b := reverseEnumsFindings()
	sa, sb := Of(a), Of(b)
	if sa != sb {
		t.Errorf("reverse-enums at two spots: signatures differ:\n%s\n%s", sa, sb)
	}
	if !regexp.MustCompile(`^augment-enumeration/difference:\*_types\.h/[0-9a-f]{12}$`).MatchString(sa) {
		t.Errorf("signature %q has not the form relation/checker/hash", sa)
	}

	// The new enumerator keeping its place (the middle of an odd list)
	// must not matter either.
	exp := []string{"OFF", "ZQ_TORVIK", "ON"}
	c := oracleFinding("lamp", "ZqTorvik", enumHeader("lamp", exp), enumHeader("lamp", reversed(exp)))
	if sc := Of(c); sc != sa {
		t.Errorf("reverse-enums with the new value in the middle: %s, want %s", sc, sa)
	}
}

func TestSignatureDifferentFaultsDiffer(t *testing.T) {
	rev, _ := reverseEnumsFindings()
	states := []string{"RED", "ZQ_KELMOR", "GREEN"}
	// count-off-by-one: the _COUNT define one too large.
	count := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states),
		strings.Replace(enumHeader("traffic_light", states), "_STATE_COUNT 3", "_STATE_COUNT 4", 1))
	// The new enumerator dropped.
	dropped := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states),
		enumHeader("traffic_light", []string{"RED", "GREEN"}))
	// The new enumerator at the end instead of in order.
	misplaced := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states),
		enumHeader("traffic_light", []string{"RED", "GREEN", "ZQ_KELMOR"}))
	// An old enumerator dropped instead.
	wrongOne := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states),
		enumHeader("traffic_light", []string{"RED", "ZQ_KELMOR"}))
	sigs := map[string]string{}
	for name, f := range map[string]*result.Finding{"reverse": rev, "count": count, "dropped": dropped, "misplaced": misplaced, "wrong-one": wrongOne} {
		s := Of(f)
		if other, ok := sigs[s]; ok {
			t.Errorf("faults %s and %s share signature %s", name, other, s)
		}
		sigs[s] = name
	}

	// The same shape under another checker, file or relation is another fault.
	other := *count
	other.Relation = "add-enumeration"
	if Of(&other) == Of(count) {
		t.Error("the relation is not part of the signature")
	}
	other = *count
	other.Checker, other.File, other.FileKey = "difference:traffic_light_types.c", "traffic_light_types.c", "*_types.c"
	if Of(&other) == Of(count) {
		t.Error("the checker and file are not part of the signature")
	}
}

func TestSignatureUsesBindingsAndCForms(t *testing.T) {
	// A prototype missing for the fresh command: the same fault for two
	// fresh names, a different one when an old command's line is missing.
	mk := func(fresh, missingLine string) *result.Finding {
		base := "#ifndef P_IO_H\n#define P_IO_H\n\nvoid p_cmd_motor_on(void);\n%s\n#endif\n"
		return &result.Finding{
			Kind: result.Oracle, Relation: "add-actuator-command", Checker: "difference:p_io.h", File: "p_io.h",
			Expected: strings.Replace(base, "%s", "void p_cmd_motor_on(void);\n"+missingLine, 1),
			Actual:   strings.Replace(base, "%s", "void p_cmd_motor_on(void);", 1),
			Bindings: map[string]string{"N": fresh},
		}
	}
	a := mk("ZqAbcdef", "void p_cmd_zq_abcdef(void);")
	b := mk("ZqHtmlBox", "void p_cmd_zq_html_box(void);")
	c := mk("ZqAbcdef", "void p_cmd_pump_off(void);")
	if Of(a) != Of(b) {
		t.Errorf("same missing prototype for two fresh names: %s vs %s", Of(a), Of(b))
	}
	if Of(a) == Of(c) {
		t.Errorf("missing prototype of the fresh command and of another command share %s", Of(a))
	}
}

func TestSignatureFromDiffOnly(t *testing.T) {
	diff := func(name string) string {
		return "--- expected/p_attrs.h\n+++ actual/p_attrs.h\n@@ -3,3 +3,3 @@\n #define P_ATTR_MANUAL \"x\"\n" +
			"-#define P_ATTR_" + name + " \"a\\n\"\n+#define P_ATTR_" + name + " \"a\\\\n\"\n #endif\n"
	}
	a := &result.Finding{Kind: result.Oracle, Relation: "add-attribute", Checker: "difference:p_attrs.h", File: "p_attrs.h",
		Diff: diff("ZQ_ONE"), Bindings: map[string]string{"N": "ZqOne"}}
	b := &result.Finding{Kind: result.Oracle, Relation: "add-attribute", Checker: "difference:p_attrs.h", File: "p_attrs.h",
		Diff: diff("ZQ_TWO_THREE"), Bindings: map[string]string{"N": "ZqTwoThree"}}
	if Of(a) != Of(b) {
		t.Errorf("same escape fault from diffs: %s vs %s", Of(a), Of(b))
	}
}

func TestSignatureCrashAndTimeout(t *testing.T) {
	crash := func(stderr string, code int) *result.Finding {
		return &result.Finding{Kind: result.Crash, Relation: "add-timer", ExitCode: code, Stderr: stderr, Bindings: map[string]string{"N": "ZqDaxlup"}}
	}
	a := crash("\npanic: runtime error: index out of range [2] with length 2\n\ngoroutine 1 [running]:\n", 2)
	b := crash("panic: runtime error: index out of range [7] with length 7\n\ngoroutine 9 [running]:\nmore\n", 2)
	c := crash("panic: runtime error: invalid memory address or nil pointer dereference\n", 2)
	d := crash("panic: runtime error: index out of range [2] with length 2\n", 1)
	if Of(a) != Of(b) {
		t.Errorf("same panic with other numbers: %s vs %s", Of(a), Of(b))
	}
	if Of(a) == Of(c) || Of(a) == Of(d) {
		t.Error("another panic or another exit code gives the same signature")
	}
	if !strings.HasPrefix(Of(a), "add-timer/crash/") {
		t.Errorf("crash signature %s", Of(a))
	}
	// Paths and fresh names in the first line do not split a group.
	e := crash("/tmp/mcpt-123/followup/elevator.cll:20:9: name ZqDaxlup declared twice\n", 1)
	f := crash("/tmp/mcpt-977/followup/boiler.cll:31:3: name ZqDaxlup declared twice\n", 1)
	f.Bindings["N"] = "ZqQuorin"
	f.Stderr = strings.ReplaceAll(f.Stderr, "ZqDaxlup", "ZqQuorin")
	e.Kind, f.Kind = result.RejectedFollowUp, result.RejectedFollowUp
	if Of(e) != Of(f) {
		t.Errorf("same rejection: %s vs %s", Of(e), Of(f))
	}
	to := &result.Finding{Kind: result.Timeout, Relation: "add-timer"}
	if got := Of(to); got != "add-timer/timeout" {
		t.Errorf("timeout signature %q", got)
	}
}

func TestSignatureFromMessage(t *testing.T) {
	a := &result.Finding{Kind: result.Oracle, Relation: "add-timer", Checker: "equivalence", File: "traffic_light_io.h", FileKey: "*_io.h",
		Message: "traffic_light_io.h is in o but missing from o′"}
	b := &result.Finding{Kind: result.Oracle, Relation: "add-timer", Checker: "equivalence", File: "pump_io.h", FileKey: "*_io.h",
		Message: "pump_io.h is in o but missing from o′"}
	c := &result.Finding{Kind: result.Oracle, Relation: "add-timer", Checker: "equivalence", File: "pump_io.h", FileKey: "*_io.h",
		Message: "pump_io.h appeared in o′ but is not in o"}
	if Of(a) != Of(b) {
		t.Errorf("same missing file in two seeds: %s vs %s", Of(a), Of(b))
	}
	if Of(b) == Of(c) {
		t.Error("a missing and an appearing file share a signature")
	}
	if got := Of(a); !strings.HasPrefix(got, "add-timer/equivalence/*_io.h/") {
		t.Errorf("signature %s does not name the file key", got)
	}
}

func TestFileKey(t *testing.T) {
	names := func(p string) []string {
		return []string{p + "_types.h", p + "_types.c", p + "_config.h", p + "_config.c", p + "_io.h", p + "_attrs.h", p + ".h", p + ".c"}
	}
	thrift := func(stem, service string) []string {
		return []string{"py/__init__.py", "py/" + stem + "/ttypes.py", "py/" + stem + "/" + service + ".py",
			"cpp/" + stem + "_types.h", "cpp/" + stem + "_types.cpp", "cpp/" + service + ".cpp"}
	}
	for _, tc := range []struct {
		file  string
		names []string
		seed  string
		want  string
	}{
		// Outputs in several directories: the seed's stem, where it is a word.
		{"cpp/chat_types.cpp", thrift("chat", "ChatService"), "seeds/chat.thrift", "cpp/*_types.cpp"},
		{"cpp/scheduler_types.cpp", thrift("scheduler", "Scheduler"), "scheduler.thrift", "cpp/*_types.cpp"},
		{"py/chat/ttypes.py", thrift("chat", "ChatService"), "chat.thrift", "py/*/ttypes.py"},
		{"cpp/ChatService.cpp", thrift("chat", "ChatService"), "chat.thrift", "cpp/ChatService.cpp"},
		{"cpp/chatter_types.cpp", thrift("chatter", "Chat"), "chat.thrift", "cpp/chatter_types.cpp"},
		{"traffic_light_types.h", names("traffic_light"), "traffic.cll", "*_types.h"},
		{"pump_types.h", names("pump"), "pump.cll", "*_types.h"},
		{"pump.c", names("pump"), "pump.cll", "*.c"},
		{"traffic_light.h", names("traffic_light"), "traffic.cll", "*.h"},
		{"src/Main.java", []string{"src/Main.java", "src/Util.java"}, "main.src", "*/Main.java"},
		{"traffic_light.h", []string{"traffic_light.h", "traffic_lime.h"}, "traffic.cll", "*_light.h"},
		{"a.c", []string{"a.c", "b.c"}, "x.src", "a.c"},
		{"a.c", []string{"a.c", "b.c"}, "a.src", "*.c"},
		{"out.c", []string{"out.c"}, "out.src", "*.c"},
		{"", names("p"), "p.cll", ""},
	} {
		if got := FileKey(tc.file, tc.names, tc.seed); got != tc.want {
			t.Errorf("FileKey(%q, %v, %q) = %q, want %q", tc.file, tc.names, tc.seed, got, tc.want)
		}
	}
}

// A fresh name that is not ASCII is bound in all its forms: two findings
// of one fault with different such names have one signature.
func TestSignatureNonASCIIFreshName(t *testing.T) {
	finding := func(fresh string) *result.Finding {
		with := []string{"RED", namecase.Upper(fresh), "GREEN"}
		return oracleFinding("traffic_light", fresh, enumHeader("traffic_light", with), enumHeader("traffic_light", []string{"RED", "GREEN"}))
	}
	a, b := finding("GrünLicht"), finding("ÄrgerZeit")
	if got := newNormaliser(a, result.Style{}).code("    TRAFFIC_LIGHT_STATE_GRÜN_LICHT,"); !strings.Contains(got, "«N.upper»") {
		t.Errorf("the upper form of GrünLicht is not bound: %q", got)
	}
	if got := newNormaliser(a, result.Style{}).code("grün_licht_t x;"); !strings.HasPrefix(got, "«N.snake»") {
		t.Errorf("the snake form of GrünLicht is not bound: %q", got)
	}
	if sa, sb := Of(a), Of(b); sa != sb {
		t.Errorf("one fault, two non-ASCII fresh names: %s vs %s", sa, sb)
	}
}

func TestGroupFindingsBySignature(t *testing.T) {
	a, b := reverseEnumsFindings()
	states := []string{"RED", "ZQ_KELMOR", "GREEN"}
	c := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states),
		strings.Replace(enumHeader("traffic_light", states), "_STATE_COUNT 3", "_STATE_COUNT 4", 1))
	a.ID, b.ID, c.ID = "c1", "c2", "c3"
	a.Case, b.Case, c.Case = 1, 2, 3
	var fs []result.Finding
	for _, f := range []*result.Finding{a, b, c} {
		f.Signature = Of(f)
		fs = append(fs, *f)
	}
	gs := Group(fs)
	if len(gs) != 2 || gs[0].Count != 2 || gs[1].Count != 1 {
		t.Fatalf("groups = %+v, want 2 then 1 finding", gs)
	}
	// The example is the finding with the least evidence.
	want := "c1"
	if len(b.Expected)+len(b.Actual) < len(a.Expected)+len(a.Actual) {
		want = "c2"
	}
	if gs[0].Example != want {
		t.Errorf("example of the first group is %s, want the smaller %s", gs[0].Example, want)
	}
}

func TestSignatureBoundListName(t *testing.T) {
	// The reverse-enums fault met on the states (no bound list name in the
	// output) and on an enumeration whose name is bound and appears in
	// every enumerator: one fault, one signature.
	states := []string{"RED", "ZQ_KELMOR", "GREEN", "YELLOW"}
	a := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", states), enumHeader("traffic_light", reversed(states)))
	a.Bindings["list"] = "states"
	speed := func(vals []string) string {
		var ls []string
		ls = append(ls, "", "typedef enum {")
		for _, v := range vals {
			ls = append(ls, "    CONVEYOR_SPEED_"+v+",")
		}
		return strings.Join(append(ls, "} conveyor_speed_t;"), "\n")
	}
	st := []string{"STOPPED", "RUNNING"}
	sp := []string{"SLOW", "FAST", "ZQ_WUBFIN"}
	b := oracleFinding("conveyor", "ZqWubfin", enumHeader("conveyor", st, speed(sp)), enumHeader("conveyor", reversed(st), speed(reversed(sp))))
	b.Bindings["list"] = "Speed"
	if Of(a) != Of(b) {
		t.Errorf("reverse-enums on states and on a bound enumeration: %s vs %s", Of(a), Of(b))
	}
}

// initBody renders the reset lines of a cllc init function, one per
// variable, with the given values.
func initBody(prefix string, vars, values []string) string {
	var b strings.Builder
	b.WriteString("void " + prefix + "_init(" + prefix + "_ctx_t *ctx)\n{\n")
	for i, v := range vars {
		b.WriteString("    ctx->v_" + v + " = " + values[i] + ";\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// resetFinding is the sorted-resets fault: the reset of the new variable
// (fresh name N) is expected at want but is at got, among old variables
// whose values may equal bindings by chance.
func resetFinding(prefix, fresh string, vars, values []string, want, got int, bindings map[string]string) *result.Finding {
	ins := func(at int) ([]string, []string) {
		vs := append(append(append([]string{}, vars[:at]...), namecase.Snake(fresh)), vars[at:]...)
		xs := append(append(append([]string{}, values[:at]...), bindings["reset"]), values[at:]...)
		return vs, xs
	}
	ev, ex := ins(want)
	av, ax := ins(got)
	file := prefix + ".c"
	bs := map[string]string{"N": fresh, "P": strings.ToUpper(prefix)}
	for k, v := range bindings {
		bs[k] = v
	}
	return &result.Finding{
		Kind: result.Oracle, Relation: "add-integer-variable", Checker: "reset-line", File: file, FileKey: "*.c",
		Expected: initBody(prefix, ev, ex), Actual: initBody(prefix, av, ax),
		Bindings: bs, Fresh: []string{"N"},
	}
}

// A new item put in the wrong place is one fault however far it went and
// whatever the lines it passed hold: here they hold numbers and names equal
// to bindings that are not fresh (a region index, the program's prefix).
func TestSignatureMisplacedNewItem(t *testing.T) {
	vars := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	a := resetFinding("far", "ZqKelmor", vars, []string{"0", "FAR_SEL_A", "9", "true", "-3"}, 4, 1,
		map[string]string{"reset": "7", "region.index": "0", "E.line": "9"})
	b := resetFinding("pump", "ZqWubfin", vars, []string{"1", "2", "3", "4", "5"}, 1, 4,
		map[string]string{"reset": "-12", "region.index": "3"})
	// One place off: a swap of the new line with an old one.
	c := resetFinding("boiler", "ZqQuorin", vars, []string{"1.5", "false", "3", "4", "5"}, 2, 3,
		map[string]string{"reset": "PUMP_MODE_ON", "region.index": "6"})
	if Of(a) != Of(b) || Of(a) != Of(c) {
		t.Errorf("misplaced new reset line: %s, %s, %s", Of(a), Of(b), Of(c))
	}
	// Without knowing the fresh names, the lines that made way count.
	a.Fresh, b.Fresh = nil, nil
	if Of(a) == Of(b) {
		t.Error("without fresh names, different moves share a signature")
	}
	// A missing new line is another fault.
	d := resetFinding("far", "ZqKelmor", vars, []string{"0", "1", "2", "3", "4"}, 2, 2, map[string]string{"reset": "0"})
	d.Actual = strings.Replace(d.Actual, "    ctx->v_zq_kelmor = 0;\n", "", 1)
	if Of(d) == Of(c) {
		t.Error("a missing and a misplaced new line share a signature")
	}
	// Old lines swapped, the new one in place: not the new item's fault.
	e := resetFinding("far", "ZqKelmor", vars, []string{"0", "1", "2", "3", "4"}, 2, 2, map[string]string{"reset": "0"})
	e.Actual = strings.Replace(e.Actual, "    ctx->v_delta = 3;\n    ctx->v_epsilon = 4;\n", "    ctx->v_epsilon = 4;\n    ctx->v_delta = 3;\n", 1)
	if Of(e) == Of(c) {
		t.Error("a swap of old lines and a misplaced new line share a signature")
	}
}

// The values of a new enumeration (a fresh list) in reverse order: two
// values swapped are the same fault as three reversed.
func TestSignatureFreshListReversed(t *testing.T) {
	table := func(values []string) string {
		var b strings.Builder
		b.WriteString("static const char *const p_zq_enum_names[] = {\n")
		for _, v := range values {
			b.WriteString("    \"" + v + "\",\n")
		}
		b.WriteString("};\n")
		return b.String()
	}
	mk := func(values []string) *result.Finding {
		return &result.Finding{
			Kind: result.Oracle, Relation: "add-enumeration", Checker: "name-table", File: "p_types.c", FileKey: "*_types.c",
			Expected: table(values), Actual: table(reversed(values)),
			Bindings: map[string]string{"N": "ZqEnum", "values": strings.Join(values, ", ")},
			Fresh:    []string{"N", "values"},
		}
	}
	two, three := mk([]string{"ZqOne", "ZqTwo"}), mk([]string{"ZqRed", "ZqAmber", "ZqGreen"})
	if Of(two) != Of(three) {
		t.Errorf("two values swapped and three reversed: %s vs %s", Of(two), Of(three))
	}
}

// TestGroupTitles: a group's title names the file key of its signature and
// the example's file, and two groups never share a title.
func TestGroupTitles(t *testing.T) {
	mk := func(id, sig, file string, size int) result.Finding {
		return result.Finding{ID: id, Kind: result.Oracle, Relation: "r", Checker: "difference", File: file, FileKey: "*_types.h",
			Signature: sig, Expected: strings.Repeat("x", size)}
	}
	gs := Group([]result.Finding{
		mk("a", "r/difference/*_types.h/111", "big_types.h", 9),
		mk("b", "r/difference/*_types.h/111", "small_types.h", 1),
		mk("c", "r/difference/*_types.h/222", "small_types.h", 1),
	})
	if len(gs) != 2 {
		t.Fatalf("%d groups", len(gs))
	}
	if gs[0].File != "small_types.h" || gs[0].FileKey != "*_types.h" {
		t.Errorf("group 1: file %q, key %q; want the example's file and the key", gs[0].File, gs[0].FileKey)
	}
	want := []string{"r: difference *_types.h · missing `ID` #111 (e.g. small_types.h)", "r: difference *_types.h · missing `ID` #222 (e.g. small_types.h)"}
	for i, g := range gs {
		if g.Title != want[i] {
			t.Errorf("title %q, want %q", g.Title, want[i])
		}
	}
}

// TestGroupTitlesSayWhatDiffers: two groups of one relation, checker and
// file key, whose examples are in different files, are told apart by how
// they depart from the prediction, not by a hash or the example's file.
func TestGroupTitlesSayWhatDiffers(t *testing.T) {
	enum := func(file string, names ...string) string {
		return "typedef enum {\n    " + strings.Join(names, ",\n    ") + ",\n} t;\n#define COUNT " + strconv.Itoa(len(names)) + "\n"
	}
	reversed := result.Finding{ID: "a", Kind: result.Oracle, Relation: "r", Checker: "difference", File: "a_types.h", FileKey: "*_types.h",
		Expected: enum("a", "RED", "GREEN", "BLUE"), Actual: enum("a", "BLUE", "GREEN", "RED")}
	counted := result.Finding{ID: "b", Kind: result.Oracle, Relation: "r", Checker: "difference", File: "b_types.h", FileKey: "*_types.h",
		Expected: enum("b", "RED", "GREEN"), Actual: strings.Replace(enum("b", "RED", "GREEN"), "COUNT 2", "COUNT 3", 1)}
	other := result.Finding{ID: "c", Kind: result.Oracle, Relation: "q", Checker: "difference", File: "c_types.h", FileKey: "*_types.h",
		Expected: "x\n", Actual: "y\n"}
	fs := []result.Finding{reversed, counted, other}
	for i := range fs {
		fs[i].Signature = Of(&fs[i])
	}
	gs := Group(fs)
	want := []string{
		"r: difference *_types.h · order reversed `ID,` (e.g. a_types.h)",
		"r: difference *_types.h · changed `#define ID #` (e.g. b_types.h)",
		"q: difference *_types.h (e.g. c_types.h)",
	}
	for i, g := range gs {
		if i >= len(want) || g.Title != want[i] {
			t.Errorf("group %d: title %q", i+1, g.Title)
		}
	}
	if gs[2].Differs != "" {
		t.Errorf("a title alone says what differs: %q", gs[2].Differs)
	}
}

// A target that writes names in camel case (as TypeScript or Java
// generators do). Two faults: one moves the new member to the front, the
// other moves an old member there. With the forms of the default style the
// new member's camel form is an identifier like any other, so the two
// faults share a signature; with the style's camel form they part.
func TestStyleForms(t *testing.T) {
	finding := func(fresh, moved string) *result.Finding {
		camel := namecase.Camel(namecase.Snake(fresh))
		lines := func(members ...string) string {
			return "export interface Config {\n  " + strings.Join(members, ": number;\n  ") + ": number;\n}\n"
		}
		exp := lines("retries", camel, "maxDelay")
		act := lines(camel, "retries", "maxDelay")
		if moved != "" {
			act = lines(moved, "retries", camel)
			exp = lines("retries", moved, camel)
		}
		f := oracleFinding("config", fresh, exp, act)
		f.File, f.FileKey, f.Checker = "config.d.ts", "*.d.ts", "difference:config.d.ts"
		f.Fresh = []string{"N"}
		return f
	}
	newFirst, oldFirst := finding("ZqKelmor", ""), finding("WubFin", "maxDelay")
	if Of(newFirst) != Of(oldFirst) {
		t.Errorf("the default forms know camel case: %s, %s", Of(newFirst), Of(oldFirst))
	}
	st := result.Style{Forms: []string{"written", "camel"}}
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	if With(st, newFirst) == With(st, oldFirst) {
		t.Errorf("with camel forms two faults share %s", With(st, newFirst))
	}
	if sa, sb := With(st, newFirst), With(st, finding("LoraqVim", "")); sa != sb {
		t.Errorf("with camel forms one fault gives %s and %s", sa, sb)
	}
	if err := (result.Style{Forms: []string{"title"}}).Check(); err == nil || !strings.Contains(err.Error(), `"title"`) {
		t.Errorf("Check of an unknown form: %v", err)
	}
}

// A target's fixed names, given as generic words, stay in the shape: two
// faults that differ only in which fixed name they write differ; without
// the words both names are just identifiers.
func TestStyleGeneric(t *testing.T) {
	finding := func(field string) *result.Finding {
		exp := "void p_step(ctx_t *ctx) {\n    ctx->" + field + " = 0;\n}\n"
		act := "void p_step(ctx_t *ctx) {\n}\n"
		f := oracleFinding("p", "ZqKelmor", exp, act)
		f.File, f.FileKey, f.Checker = "p.c", "*.c", "difference:p.c"
		return f
	}
	a, b := finding("next_state"), finding("remaining_ms")
	if Of(a) != Of(b) {
		t.Errorf("without generic words the fixed names are identifiers: %s, %s", Of(a), Of(b))
	}
	st := result.Style{Generic: []string{"next_state", "remaining_ms"}}
	if With(st, a) == With(st, b) {
		t.Errorf("generic words are not kept: both %s", With(st, a))
	}
}

// TestRejectedFollowUpsGroupedByDiagnostic: rejected follow-ups are grouped
// by the transpiler's diagnostic (its scratch paths already written
// {input}): the same error at other places, about other names, in other
// seeds is one group, whose title says it; another error code, or the same
// code about a fresh name, is another.
func TestRejectedFollowUpsGroupedByDiagnostic(t *testing.T) {
	rejected := func(id, seed, diag string) result.Finding {
		return result.Finding{ID: id, Kind: result.RejectedFollowUp, Relation: "add-member", SeedFile: seed, ExitCode: 1, Diagnostic: diag,
			Stderr: "whatever else the run wrote " + id + "\n", Bindings: map[string]string{"M": "ZqDaxlup"}, Fresh: []string{"M"}}
	}
	fs := []result.Finding{
		rejected("a", "orders.ts", "{input}(12,3): error TS1005: ';' expected."),
		rejected("b", "network.ts", "{input}(40,17): error TS1005: '}' expected."),
		rejected("c", "orders.ts", "{input}(7,1): error TS2300: Duplicate identifier 'Status'."),
		rejected("d", "game.ts", "{input}(9,5): error TS2300: Duplicate identifier 'PlayerId'."),
		rejected("e", "game.ts", "{input}(9,5): error TS2300: Duplicate identifier ZqDaxlup."),
	}
	for i := range fs {
		fs[i].Signature = Of(&fs[i])
	}
	if fs[0].Signature != fs[1].Signature || fs[2].Signature != fs[3].Signature {
		t.Errorf("one error at two places splits: %s %s, %s %s", fs[0].Signature, fs[1].Signature, fs[2].Signature, fs[3].Signature)
	}
	if fs[0].Signature == fs[2].Signature || fs[2].Signature == fs[4].Signature {
		t.Errorf("two errors share a signature: %s %s %s", fs[0].Signature, fs[2].Signature, fs[4].Signature)
	}
	gs := Group(fs)
	want := []string{
		"add-member: rejected-followup · diagnostic `{input}(#,#): error TS1005: '…' expected.`",
		"add-member: rejected-followup · diagnostic `{input}(#,#): error TS2300: Duplicate identifier '…'.`",
		"add-member: rejected-followup · diagnostic `{input}(#,#): error TS2300: Duplicate identifier «M».`",
	}
	if len(gs) != len(want) {
		t.Fatalf("%d groups, want %d", len(gs), len(want))
	}
	for i, g := range gs {
		if g.Title != want[i] {
			t.Errorf("group %d: title %q, want %q", i+1, g.Title, want[i])
		}
	}
	// A report from before diagnostics groups by standard error, as before.
	old := rejected("f", "x.ts", "")
	if got := Of(&old); got == fs[0].Signature || !strings.HasPrefix(got, "add-member/rejected-followup/") {
		t.Errorf("without a diagnostic: %s", got)
	}
}

// BenchmarkWithLargeFile: the signature of a finding whose file is a
// few hundred lines long, with a dozen bindings, as a generator of C++
// writes them.
func BenchmarkWithLargeFile(b *testing.B) {
	var states []string
	for i := range 300 {
		states = append(states, "STATE_NUMBER_"+strconv.Itoa(i))
	}
	exp := append([]string{"ZQ_KELMOR"}, states...)
	f := oracleFinding("traffic_light", "ZqKelmor", enumHeader("traffic_light", exp), enumHeader("traffic_light", reversed(exp)))
	for i := range 12 {
		f.Bindings["B"+strconv.Itoa(i)] = "binding_value_" + strconv.Itoa(i)
	}
	for b.Loop() {
		With(result.Style{}, f)
	}
}
