package oracle

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/tree"
	"golang.org/x/tools/txtar"
)

// nm gives a name the forms as written, snake and upper case (enough for
// these tests: the names are single words or already snake case).
func nm(s string) Name {
	if s == "" {
		return Name{}
	}
	return Name{Forms: []string{s, strings.ToLower(s), strings.ToUpper(s)}}
}

const typesH = `typedef enum {
    P_STATE_RED,
    P_STATE_GREEN,
    P_STATE_YELLOW,
} p_state_t;
#define P_STATE_COUNT 3
`

const typesC = `static const char *const p_state_names[] = {
    "Red",
    "Green",
    "Yellow",
};
`

// withNew inserts the new state after Green (its place in i′ is between
// Green and Yellow) in both files, and sets the count.
func withNew(h, c string, count string) tree.Tree {
	h = strings.Replace(h, "    P_STATE_GREEN,\n", "    P_STATE_GREEN,\n    P_STATE_ZQNEW,\n", 1)
	h = strings.Replace(h, "COUNT 3", "COUNT "+count, 1)
	c = strings.Replace(c, "    \"Green\",\n", "    \"Green\",\n    \"Zqnew\",\n", 1)
	return tree.Tree{"p_types.h": []byte(h), "p_types.c": []byte(c), "p.c": []byte("int x;\n")}
}

func stateTree() tree.Tree {
	return tree.Tree{"p_types.h": []byte(typesH), "p_types.c": []byte(typesC), "p.c": []byte("int x;\n")}
}

func TestLocality(t *testing.T) {
	l := &Locality{Fresh: []Name{nm("Zqnew")}, Numbers: 1}
	if v := l.Decide(stateTree(), withNew(typesH, typesC, "4")); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Fatalf("false alarm: %+v", v)
	}
	block := tree.Tree{"f.c": []byte("void a(void)\n{\n    x();\n}\n")}
	grown := tree.Tree{"f.c": []byte("void a(void)\n{\n    x();\n}\n\nvoid zqnew(void)\n{\n    x();\n}\n")}
	for name, tc := range map[string]struct {
		l     Locality
		o, o2 tree.Tree
		msg   string
	}{
		"numbers not allowed": {Locality{Fresh: []Name{nm("Zqnew")}}, stateTree(), withNew(typesH, typesC, "4"), "changed only in their numbers, the relation allows 0"},
		"other file changed": {*l, stateTree(), func() tree.Tree {
			o2 := withNew(typesH, typesC, "4")
			o2["p.c"] = []byte("int y;\n")
			return o2
		}(), "p.c changed, but it does not mention"},
		"unrelated line added": {*l, stateTree(), withNew(typesH, strings.Replace(typesC, "};", "    \"Blue\",\n};", 1), "4"), `1 line added that does not mention the new declaration: + "Blue",`},
		"line removed":         {*l, stateTree(), withNew(strings.Replace(typesH, "    P_STATE_RED,\n", "", 1), typesC, "4"), `1 line removed that does not mention the new declaration: - P_STATE_RED,`},
		"file gone":            {*l, stateTree(), tree.Tree{"p_types.h": []byte(typesH), "p_types.c": []byte(typesC)}, "missing from o′"},
		"file without name":    {*l, stateTree(), func() tree.Tree { o2 := stateTree(); o2["x.h"] = []byte("int z;\n"); return o2 }(), "appeared in o′"},
		"block not in hunks":   {Locality{Fresh: []Name{nm("Zqnew")}}, block, grown, "lines added"},
	} {
		v := tc.l.Decide(tc.o, tc.o2)
		if len(v.Fails) == 0 || !strings.Contains(v.Fails[0].Message, tc.msg) {
			t.Errorf("%s: want a failure saying %q, got %+v", name, tc.msg, v.Fails)
		}
		// Nothing was predicted: the diff is from o to o′.
		if d := v.Fails[len(v.Fails)-1].Diff; d != "" && !strings.HasPrefix(d, "--- o/") {
			t.Errorf("%s: diff labelled %q, want o and o′", name, strings.SplitN(d, "\n", 3)[:2])
		}
	}
	// A count that grows by two where one declaration came (count-off-by-one).
	by := &Locality{Fresh: []Name{nm("Zqnew")}, Numbers: 1, By: 1}
	if v := by.Decide(stateTree(), withNew(typesH, typesC, "4")); len(v.Fails) != 0 {
		t.Errorf("by 1: false alarm %+v", v.Fails)
	}
	if v := by.Decide(stateTree(), withNew(typesH, typesC, "5")); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "another amount than +1") {
		t.Errorf("by 1, count +2: want a failure, got %+v", v.Fails)
	}
	// A multi-line block is the new declaration's as a whole with Hunks.
	if v := (&Locality{Fresh: []Name{nm("Zqnew")}, Hunks: true}).Decide(block, grown); len(v.Fails) != 0 {
		t.Errorf("hunks: false alarm %+v", v.Fails)
	}
	// Braces and blank lines of a block whose lines name it need no Hunks.
	named := tree.Tree{"f.c": []byte("void a(void)\n{\n}\n\nvoid zqnew(void)\n{\n    zqnew_x();\n}\n")}
	if v := (&Locality{Fresh: []Name{nm("Zqnew")}}).Decide(tree.Tree{"f.c": []byte("void a(void)\n{\n}\n")}, named); len(v.Fails) != 0 {
		t.Errorf("structural lines: false alarm %+v", v.Fails)
	}
	// A trailing comma gained by the old last element is punctuation.
	p := &Locality{Fresh: []Name{nm("Zqnew")}, Punctuation: 1}
	if v := p.Decide(tree.Tree{"a": []byte("x = [\n  a\n]\n")}, tree.Tree{"a": []byte("x = [\n  a,\n  zqnew\n]\n")}); len(v.Fails) != 0 {
		t.Errorf("punctuation: false alarm %+v", v.Fails)
	}
	p.Punctuation = 0
	if v := p.Decide(tree.Tree{"a": []byte("x = [\n  a\n]\n")}, tree.Tree{"a": []byte("x = [\n  a,\n  zqnew\n]\n")}); len(v.Fails) != 1 {
		t.Errorf("punctuation 0: want a failure, got %+v", v.Fails)
	}
}

func TestOrder(t *testing.T) {
	c := &Order{New: nm("Zqnew"), Prev: nm("Green"), Next: nm("Yellow"), Others: []Name{nm("Red")}}
	if v := c.Decide(stateTree(), withNew(typesH, typesC, "4")); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Fatalf("false alarm: %+v", v)
	}
	// The paper's fault: everything in reverse order, in o as in o′.
	rev := func(s string) string {
		ls := strings.Split(s, "\n")
		for i, j := 1, 3; i < j; i, j = i+1, j-1 {
			ls[i], ls[j] = ls[j], ls[i]
		}
		return strings.Join(ls, "\n")
	}
	o2 := withNew(typesH, typesC, "4")
	o2["p_types.c"] = []byte(strings.Replace(rev(typesC), "    \"Green\",\n", "    \"Zqnew\",\n    \"Green\",\n", 1))
	v := c.Decide(tree.Tree{"p_types.h": []byte(typesH), "p_types.c": []byte(rev(typesC))}, o2)
	if len(v.Fails) != 1 || v.Fails[0].File != "p_types.c" || !strings.Contains(v.Fails[0].Message, "not between Green and Yellow") {
		t.Errorf("reversed: want a failure on p_types.c, got %+v", v.Fails)
	}
	// The new line after the next one.
	o2 = withNew(typesH, typesC, "4")
	o2["p_types.h"] = []byte(strings.Replace(strings.Replace(typesH, "COUNT 3", "COUNT 4", 1), "    P_STATE_YELLOW,\n", "    P_STATE_YELLOW,\n    P_STATE_ZQNEW,\n", 1))
	if v := c.Decide(stateTree(), o2); len(v.Fails) != 1 || v.Fails[0].File != "p_types.h" {
		t.Errorf("after next: want a failure on p_types.h, got %+v", v.Fails)
	}
	// On one line, the order of the names.
	one := &Order{New: nm("Zqnew"), Prev: nm("Red"), Next: nm("Green")}
	if v := one.Decide(tree.Tree{"a": []byte("x(Red, Green)\n")}, tree.Tree{"a": []byte("x(Red, Green, Zqnew)\n")}); len(v.Fails) != 1 {
		t.Errorf("one line: want a failure, got %+v", v)
	}
	if v := one.Decide(tree.Tree{"a": []byte("x(Red, Green)\n")}, tree.Tree{"a": []byte("x(Red, Zqnew, Green)\n")}); len(v.Fails) != 0 {
		t.Errorf("one line: false alarm %+v", v)
	}
}

func TestOrderUndecided(t *testing.T) {
	o2 := withNew(typesH, typesC, "4")
	for name, c := range map[string]*Order{
		"no neighbours":         {New: nm("Zqnew")},
		"neighbours not listed": {New: nm("Zqnew"), Prev: nm("Blue"), Next: nm("Pink")},
	} {
		v := c.Decide(stateTree(), o2)
		if len(v.Fails) != 0 || len(v.Undecided) == 0 {
			t.Errorf("%s: want undecided and no failure, got %+v", name, v)
		}
	}
	// Green has one line of the shape, the new name two: the places cannot
	// be paired, so the check does not decide (and does not fail).
	c := &Order{New: nm("Zqnew"), Prev: nm("Green")}
	v := c.Decide(tree.Tree{"a": []byte("  Green;\n")}, tree.Tree{"a": []byte("  Zqnew;\n  Green;\n  Zqnew;\n")})
	if len(v.Fails) != 0 || len(v.Undecided) == 0 {
		t.Errorf("counts differ: want undecided, got %+v", v)
	}
	// An occurrence inside a longer declared name is not the neighbour.
	c = &Order{New: nm("Zqnew"), Prev: nm("Red"), Others: []Name{nm("Red_light")}}
	v = c.Decide(tree.Tree{"a": []byte("  Red_light;\n  Red;\n")}, tree.Tree{"a": []byte("  Red_light;\n  Red;\n  Zqnew;\n")})
	if len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("shadowed: %+v", v)
	}
}

const timers = `typedef struct {
    p_timer_t t_delay;
    p_timer_t t_jiy;
} p_ctx_t;
void p_end(p_ctx_t *ctx)
{
    if (ctx->t_delay.active) { ctx->t_delay.remaining_ms -= 10; }
    if (ctx->t_jiy.active) { ctx->t_jiy.remaining_ms -= 10; }
}
`

func TestAnalogy(t *testing.T) {
	o := tree.Tree{"p.c": []byte(timers)}
	good := strings.Replace(timers, "    p_timer_t t_jiy;\n", "    p_timer_t t_jiy;\n    p_timer_t t_zqnew;\n", 1)
	good = strings.Replace(good, "}\n", "    if (ctx->t_zqnew.active) { ctx->t_zqnew.remaining_ms -= 20; }\n}\n", 1)
	good = strings.Replace(good, "-= 10; }\n}", "-= 10; }\n    if (ctx->t_zqnew.active) { ctx->t_zqnew.remaining_ms -= 10; }\n}", 1)
	good = strings.Replace(good, "    if (ctx->t_zqnew.active) { ctx->t_zqnew.remaining_ms -= 20; }\n", "", 1)
	// jiy is its own snake case: the new name may stand there in either form.
	c := &Analogy{Renames: []Rename{{From: nm("jiy"), To: nm("Zqnew")}}, Others: []Name{nm("Delay")}}
	if v := c.Decide(o, tree.Tree{"p.c": []byte(good)}); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Fatalf("false alarm: %+v\n%s", v, good)
	}
	// The tick line missing (skip-second-tick, with the new timer second).
	bad := strings.Replace(good, "    if (ctx->t_zqnew.active) { ctx->t_zqnew.remaining_ms -= 10; }\n", "", 1)
	v := c.Decide(o, tree.Tree{"p.c": []byte(bad)})
	if len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "lacks 1 lines") || !strings.Contains(strings.ToLower(v.Fails[0].Expected), "t_zqnew.active") {
		t.Errorf("missing line: want a failure naming it, got %+v", v.Fails)
	}
	// Numbers are masked unless kept.
	other := strings.Replace(good, "t_zqnew.remaining_ms -= 10", "t_zqnew.remaining_ms -= 20", 1)
	if v := c.Decide(o, tree.Tree{"p.c": []byte(other)}); len(v.Fails) != 0 {
		t.Errorf("numbers masked: false alarm %+v", v.Fails)
	}
	keep := *c
	keep.KeepNumbers = true
	if v := keep.Decide(o, tree.Tree{"p.c": []byte(other)}); len(v.Fails) != 1 {
		t.Errorf("numbers kept: want a failure, got %+v", v.Fails)
	}
	// A sibling without lines, or none, cannot be decided.
	for name, c := range map[string]*Analogy{
		"no sibling":       {},
		"sibling no lines": {Renames: []Rename{{From: nm("Pump"), To: nm("Zqnew")}}},
	} {
		v := c.Decide(o, tree.Tree{"p.c": []byte(bad)})
		if len(v.Fails) != 0 || len(v.Undecided) == 0 {
			t.Errorf("%s: want undecided, got %+v", name, v)
		}
	}
}

func TestNameBoundaries(t *testing.T) {
	for _, tc := range []struct {
		line, form string
		n          int
	}{
		{"P_STATE_RED,", "RED", 1},
		{"P_STATE_REDDISH,", "RED", 0},
		{"raiseRed()", "Red", 1},
		{"e_red_light", "red", 1},
		{"Red2", "Red", 0},
		{"RedLight", "Red", 1},
	} {
		if got := len((Name{Forms: []string{tc.form}}).find(tc.line, nil)); got != tc.n {
			t.Errorf("%q in %q: %d occurrences, want %d", tc.form, tc.line, got, tc.n)
		}
	}
}

func TestTrimCommon(t *testing.T) {
	for _, tc := range []struct{ a, b, ta, tb string }{
		{"x\nfoo\ny\n", "x\nfoo\nbar\ny\n", "", "bar\n"},
		{"foo\n", "zzfoo\n", "foo\n", "zzfoo\n"},
		{"a\nb\n", "a\nb\n", "", ""},
		{"a\nb", "a\nc", "b", "c"},
	} {
		if a, b := trimCommon([]byte(tc.a), []byte(tc.b)); a != tc.ta || b != tc.tb {
			t.Errorf("trimCommon(%q, %q) = %q, %q, want %q, %q", tc.a, tc.b, a, b, tc.ta, tc.tb)
		}
	}
}

func TestLocalityAlso(t *testing.T) {
	o := tree.Tree{"a.h": []byte("S(const S&) noexcept;\nint a;\n")}
	o2 := tree.Tree{"a.h": []byte("S(const S&);\nint a;\nstd::string zqnew;\n")}
	l := &Locality{Fresh: []Name{nm("Zqnew")}}
	if v := l.Decide(o, o2); len(v.Fails) != 1 {
		t.Fatalf("without also: want a failure, got %+v", v.Fails)
	}
	l.Also = []*regexp.Regexp{regexp.MustCompile(`^S\(const S&\)( noexcept)?;$`)}
	if v := l.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("with also: false alarm %+v", v.Fails)
	}
	// A file that names no declaration (protoc-c's table of enum values
	// under optimize_for = CODE_SIZE) gains the new entry, a line also
	// matches, and its count: explained. Without the entry, the count
	// alone must not change.
	tab := func(n string, vals ...string) []byte {
		var b strings.Builder
		b.WriteString("ProtobufCEnumValue e[" + n + "] =\n{\n")
		for _, v := range vals {
			b.WriteString("  { NULL, NULL, " + v + " }, /* CODE_SIZE */\n")
		}
		b.WriteString("};\n")
		return []byte(b.String())
	}
	o = tree.Tree{"e.h": []byte("  E__A = 0,\n"), "e.c": tab("1", "0")}
	o2 = tree.Tree{"e.h": []byte("  E__A = 0,\n  E__ZQNEW = 7,\n"), "e.c": tab("2", "0", "7")}
	entry := &Locality{Fresh: []Name{nm("Zqnew")}, Numbers: Any}
	if v := entry.Decide(o, o2); len(v.Fails) != 1 || v.Fails[0].File != "e.c" {
		t.Errorf("an entry without the name, no also: want a failure of e.c, got %+v", v.Fails)
	}
	entry.Also = []*regexp.Regexp{regexp.MustCompile(`^\s*\{ NULL, NULL, -?\d+ \}, /\* CODE_SIZE \*/$`)}
	if v := entry.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("an entry without the name: false alarm %+v", v.Fails)
	}
	o2["e.c"] = tab("2", "0")
	if v := entry.Decide(o, o2); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "byte-identical") {
		t.Errorf("a count without an entry: want a failure, got %+v", v.Fails)
	}
	o2["e.c"] = append(tab("2", "0", "7"), "int x;\n"...)
	if v := entry.Decide(o, o2); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "int x;") {
		t.Errorf("an entry and an unrelated line: want a failure, got %+v", v.Fails)
	}
}

func TestOrderPlaces(t *testing.T) {
	// read() in declaration order, write() in id order: the new field (the
	// largest id) comes last in write().
	o2 := tree.Tree{"a.cpp": []byte("  read(a);\n  read(zqnew);\n  read(b);\n  write(a);\n  write(b);\n  write(zqnew);\n")}
	o := tree.Tree{"a.cpp": []byte("  read(a);\n  read(b);\n  write(a);\n  write(b);\n")}
	all := &Order{New: nm("zqnew"), Prev: nm("a"), Next: nm("b")}
	if v := all.Decide(o, o2); len(v.Fails) != 1 {
		t.Fatalf("every place: want a failure in write(), got %+v", v.Fails)
	}
	all.Places = regexp.MustCompile(`^\s*read\(`)
	if v := all.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("read places only: false alarm %+v", v.Fails)
	}
	byID := &Order{New: nm("zqnew"), Prev: nm("b"), Places: regexp.MustCompile(`^\s*write\(`)}
	if v := byID.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("write after the largest id: %+v", v)
	}
	o2["a.cpp"] = []byte("  read(a);\n  read(zqnew);\n  read(b);\n  write(a);\n  write(zqnew);\n  write(b);\n")
	if v := byID.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("write in declaration order: want a failure, got %+v", v.Fails)
	}
}

func TestLocalitySplitRenamedMasked(t *testing.T) {
	fresh := []Name{nm("Zqnew")}
	// A new first entry of an initialiser list takes the old first one's ":".
	o := tree.Tree{"a.h": []byte("  Job() : id(),\n          n(0) {\n")}
	o2 := tree.Tree{"a.h": []byte("  Job() : zqnew(0),\n          id(),\n          n(0) {\n")}
	if v := (&Locality{Fresh: fresh}).Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("split: false alarm %+v", v.Fails)
	}
	// An old line that names the new enumerator instead: only when renamed.
	o = tree.Tree{"a.h": []byte("  A,\n  B\n  MAX = B\n")}
	o2 = tree.Tree{"a.h": []byte("  A,\n  B,\n  ZQNEW\n  MAX = ZQNEW\n")}
	l := &Locality{Fresh: fresh, Punctuation: Any}
	if v := l.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("renamed not allowed: want a failure, got %+v", v.Fails)
	}
	l.Renamed = true
	if v := l.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("renamed: false alarm %+v", v.Fails)
	}
	// The new line replaces an old one: renamed does not hide a line
	// whose only word was the old name.
	o2 = tree.Tree{"a.h": []byte("  A,\n  ZQNEW\n  MAX = B\n")}
	if v := l.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("replaced line: want a failure, got %+v", v.Fails)
	}
	// With any renumbering, a shifted sequence is no change.
	o = tree.Tree{"a.ts": []byte("a() {\n  off(4);\n}\nb() {\n  off(6);\n}\n")}
	o2 = tree.Tree{"a.ts": []byte("a() {\n  off(4);\n}\nzqnew() {\n  off(6);\n}\nb() {\n  off(8);\n}\n")}
	if v := (&Locality{Fresh: fresh, Numbers: Any, Hunks: true}).Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("shifted slots: false alarm %+v", v.Fails)
	}
	// With a count, lines keep their numbers: the last slot is an added line.
	if v := (&Locality{Fresh: fresh, Numbers: 5, Hunks: true}).Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("shifted slots, counted: want a failure, got %+v", v.Fails)
	}
}

func TestOrderNotPlacesAndLists(t *testing.T) {
	o := tree.Tree{"a.h": []byte("  m_a;\n  m_b;\n  add_b();\n  add_a();\n")}
	o2 := tree.Tree{"a.h": []byte("  m_a;\n  m_zqnew;\n  m_b;\n  add_b();\n  add_zqnew();\n  add_a();\n")}
	c := &Order{New: nm("zqnew"), Prev: nm("a"), Next: nm("b")}
	if v := c.Decide(o, o2); len(v.Fails) != 1 {
		t.Fatalf("builder calls by size: want a failure, got %+v", v.Fails)
	}
	c.NotPlaces = regexp.MustCompile(`add_`)
	if v := c.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("not_places: false alarm %+v", v.Fails)
	}
	// A neighbour's name as a type on the new line is no list.
	typed := &Order{New: nm("zqnew"), Prev: nm("number")}
	if v := typed.Decide(tree.Tree{"a.ts": []byte("x\n")}, tree.Tree{"a.ts": []byte("zqnew():number {\n")}); len(v.Fails) != 0 {
		t.Errorf("type named like the neighbour: false alarm %+v", v.Fails)
	}
	// A neighbour's word that is also another declared name (the message
	// LongMsg and its field long_msg, copied into the new message) is no
	// list of the two: the new message's field follows its name.
	msg := func(s, snake string) Name { return Name{Forms: []string{s, snake, strings.ToUpper(snake)}} }
	field := &Order{New: msg("Zqnew", "zqnew"), Prev: msg("LongMsg", "long_msg"), Others: []Name{msg("LongMsg", "long_msg"), msg("long_msg", "long_msg")}}
	o = tree.Tree{"a.c": []byte("  offsetof(LongMsg, long_msg),\n")}
	o2 = tree.Tree{"a.c": []byte("  offsetof(LongMsg, long_msg),\n  offsetof(Zqnew, long_msg),\n")}
	if v := field.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("a field named like the neighbour: false alarm %+v", v.Fails)
	}
	// The neighbour in a form of its own still decides.
	o2 = tree.Tree{"a.c": []byte("  offsetof(LongMsg, long_msg),\n  f(Zqnew, LongMsg),\n")}
	if v := field.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("the neighbour after the new name: want a failure, got %+v", v.Fails)
	}
}

func TestAnalogyFormsPresent(t *testing.T) {
	// FAILED's lower case in boilerplate text of a file where the new
	// enumerator does not appear is not about FAILED.
	o := tree.Tree{"t.h": []byte("  FAILED = 3,\n"), "s.cpp": []byte(`throw X("submit failed: unknown result");` + "\n")}
	o2 := tree.Tree{"t.h": []byte("  FAILED = 3,\n  ZQNEW = 4,\n"), "s.cpp": o["s.cpp"]}
	c := &Analogy{Renames: []Rename{{From: nm("FAILED"), To: nm("ZQNEW")}}}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("boilerplate: %+v", v)
	}
	o2["t.h"] = []byte("  FAILED = 3,\n")
	o2["u.h"] = []byte("ZQNEW\n")
	// A file where the sibling has lines and o′ has the new name in no
	// form is judged with the forms o′ has elsewhere: the line is missing.
	if v := c.Decide(o, o2); len(v.Fails) != 1 || v.Fails[0].File != "t.h" {
		t.Errorf("the new name absent from t.h: want a failure of t.h, got %+v", v.Fails)
	}
}

// TestAnalogySignedNumbers: a number's minus sign is masked with it: the
// new enumerator `ZQNEW = -1,` is like the sibling's `B = 2,`; a
// subtraction keeps its operator.
func TestAnalogySignedNumbers(t *testing.T) {
	c := &Analogy{Renames: []Rename{{From: nm("B"), To: nm("Zqnew")}}, Others: []Name{nm("A")}}
	o := tree.Tree{"e.h": []byte("enum E {\n  A = 1,\n  B = 2,\n};\n")}
	o2 := tree.Tree{"e.h": []byte("enum E {\n  A = 1,\n  B = 2,\n  ZQNEW = -1,\n};\n")}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("a negative value: %+v", v)
	}
	if got := maskSigned("x = -12, y-1, f(-3), a[2]-4, n - 1, (-2147483647 - 1);"); got != "x = #, y-#, f(#), a[#]-#, n - #, #;" {
		t.Errorf("maskSigned: %q", got)
	}
	// After a keyword that an expression follows, the minus is a sign; after
	// a word that ends in one, or a member named like one, it stays.
	for in, want := range map[string]string{
		"case -1: return -2147483648;": "case #: return #;",
		"x = y in -1 ? yield -2 : -3":  "x = y in # ? yield # : #",
		"xreturn -1, a.return -1, n-1": "xreturn -#, a.return -#, n-#",
	} {
		if got := maskSigned(in); got != want {
			t.Errorf("maskSigned(%q) = %q, want %q", in, got, want)
		}
	}
	// ts-proto 1.82.5 leaves its enum helpers unformatted under stringEnums:
	// a case and its return on one line, the new value's number the
	// smallest int32.
	c = &Analogy{Renames: []Rename{{From: nm("SEVERITY_LOW"), To: nm("ZQNEW")}}, Others: []Name{nm("SEVERITY_HIGH")}}
	base := "export function severityToNumber(object: Severity): number {\n  switch (object) {\n    case Severity.SEVERITY_HIGH: return 1;\n    case Severity.SEVERITY_LOW: return 30;\n  }\n}\n"
	o = tree.Tree{"s.ts": []byte(base)}
	o2 = tree.Tree{"s.ts": []byte(strings.Replace(base, "    case Severity.SEVERITY_LOW", "    case Severity.ZQNEW: return -2147483648;\n    case Severity.SEVERITY_LOW", 1))}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("a negative value after return: %+v", v)
	}
	// the same line with the operator of a subtraction is not the sibling's
	o2 = tree.Tree{"s.ts": []byte(strings.Replace(base, "    case Severity.SEVERITY_LOW", "    case Severity.ZQNEW: return x-2147483648;\n    case Severity.SEVERITY_LOW", 1))}
	if v := c.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("a subtraction after return: want a failure, got %+v", v)
	}
}

// TestAnalogyMacroContinuation: a list in a C macro ends its lines but the
// last with a backslash; the sibling last, the new entry before it, the
// two lines differ only in that punctuation.
func TestAnalogyMacroContinuation(t *testing.T) {
	c := &Analogy{Renames: []Rename{{From: nm("rtoll"), To: nm("zqnew")}}}
	o := tree.Tree{"s.h": []byte("#define S__INIT(p__) \\\n    { S__BASE_INIT,\\\n      p__ ## rtoll  }\n")}
	o2 := tree.Tree{"s.h": []byte("#define S__INIT(p__) \\\n    { S__BASE_INIT,\\\n      p__ ## zqnew,\\\n      p__ ## rtoll  }\n")}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("an entry before the last of a macro's list: %+v", v)
	}
	o2["s.h"] = []byte("#define S__INIT(p__) \\\n    { S__BASE_INIT,\\\n      p__ ## rtoll  }\n  zqnew;\n")
	if v := c.Decide(o, o2); len(v.Fails) != 1 {
		t.Errorf("the entry missing: want a failure, got %+v", v.Fails)
	}
}

// TestAnalogyFileWithoutNewName: a file of o′ that no longer names the new
// declaration at all, where the sibling has lines, is checked.
func TestAnalogyFileWithoutNewName(t *testing.T) {
	c := &Analogy{Renames: []Rename{{From: nm("Bell"), To: nm("Zqnew")}}, Others: []Name{nm("Alarm")}}
	o := tree.Tree{"a.h": []byte("int alarm;\nint bell;\n"), "b.c": []byte("void alarm(void);\nvoid bell(void);\n")}
	o2 := tree.Tree{"a.h": []byte("int alarm;\nint bell;\nint zqnew;\n"), "b.c": []byte("void alarm(void);\nvoid bell(void);\n")}
	v := c.Decide(o, o2)
	if len(v.Fails) != 1 || v.Fails[0].File != "b.c" || !strings.Contains(v.Fails[0].Message, "void zqnew(void") {
		t.Errorf("want a failure of b.c, got %+v", v)
	}
	o2["b.c"] = []byte("void alarm(void);\nvoid bell(void);\nvoid zqnew(void);\n")
	if v := c.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("false alarm: %+v", v)
	}
}

// TestAnalogyAmbiguousLine: in a file of o′ that does not name the new
// declaration, a line whose mention of the sibling also names another
// declaration (the attribute FloorCount in the count of the enumeration
// Floor) is not the sibling's: no false alarm; without that other
// declaration, the same line is checked there.
func TestAnalogyAmbiguousLine(t *testing.T) {
	floorCount := Name{Forms: []string{"FloorCount", "floor_count", "FLOOR_COUNT"}}
	c := &Analogy{Renames: []Rename{{From: floorCount, To: Name{Forms: []string{"Zqnew", "zqnew", "ZQNEW"}}}}, Others: []Name{nm("Floor")}}
	o := tree.Tree{
		"attrs.h": []byte("#define E_ATTR_FLOOR_COUNT 5\n"),
		"types.h": []byte("#define E_FLOOR_COUNT 5\n"),
	}
	o2 := tree.Tree{
		"attrs.h": []byte("#define E_ATTR_FLOOR_COUNT 5\n#define E_ATTR_ZQNEW 0\n"),
		"types.h": []byte("#define E_FLOOR_COUNT 5\n"),
	}
	if v := c.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("false alarm on the count of Floor: %+v", v)
	}
	// Without the enumeration Floor, the line is FloorCount's alone.
	c.Others = []Name{nm("Door")}
	v := c.Decide(o, o2)
	if len(v.Fails) != 1 || v.Fails[0].File != "types.h" {
		t.Errorf("want a failure of types.h, got %+v", v)
	}
	// In a file of o′ that names the new declaration too: protoc-gen-go's
	// getter of the field last_flushed_sequence_id is no line of the rpc
	// GetLastFlushedSequenceId, whose one line is a comment here.
	// Others hold every declared name, the sibling's too (as relations
	// give them): the sibling is no other declaration of its own lines.
	field := Name{Forms: []string{"last_flushed_sequence_id", "LastFlushedSequenceId"}}
	sibling := Name{Forms: []string{"GetLastFlushedSequenceId", "get_last_flushed_sequence_id"}}
	rpc := &Analogy{
		Renames: []Rename{{From: sibling, To: Name{Forms: []string{"Zqnew", "zqnew"}}}},
		Others:  []Name{field, sibling, {Forms: []string{"GetLastFlushedSequenceIdResponse", "get_last_flushed_sequence_id_response"}}},
	}
	getter := "func (x *GetLastFlushedSequenceIdResponse) GetLastFlushedSequenceId() uint64 {\n"
	o = tree.Tree{"s.pb.go": []byte(getter + "\t3, // 3: S.GetLastFlushedSequenceId:input_type\n")}
	o2 = tree.Tree{"s.pb.go": []byte(getter + "\t3, // 3: S.GetLastFlushedSequenceId:input_type\n\t3, // 4: S.Zqnew:input_type\n")}
	if v := rpc.Decide(o, o2); len(v.Fails) != 0 {
		t.Errorf("false alarm on the getter of a field: %+v", v.Fails)
	}
	// Without the field, the getter is the sibling's line.
	rpc.Others = rpc.Others[1:]
	if v := rpc.Decide(o, o2); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, ") Zqnew() uint#") {
		t.Errorf("want a failure of s.pb.go, got %+v", v)
	}
}

// TestLocalityGrows: a line that names no declaration but may only grow
// (a positional initialiser list gaining an entry) passes when its old
// tokens are a subsequence of the new line's, and fails when an old entry
// is dropped.
func TestLocalityGrows(t *testing.T) {
	o := tree.Tree{"t.c": []byte("int zz;\nstatic const char *kinds[] = { \"a\", \"b\", \"c\" };\n")}
	grown := tree.Tree{"t.c": []byte("int zz;\nint zqnew;\nstatic const char *kinds[] = { \"a\", \"b\", \"c\", \"s\" };\n")}
	swapped := tree.Tree{"t.c": []byte("int zz;\nint zqnew;\nstatic const char *kinds[] = { \"a\", \"b\", \"s\" };\n")}
	l := &Locality{Fresh: []Name{nm("Zqnew")}, Grows: []*regexp.Regexp{regexp.MustCompile(`^static const char \*kinds`)}}
	if v := l.Decide(o, grown); len(v.Fails) != 0 {
		t.Errorf("grown: false alarm %+v", v.Fails)
	}
	if v := l.Decide(o, swapped); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, `- static const char *kinds[] = { "a", "b", "c" };`) {
		t.Errorf("an entry dropped: want a failure, got %+v", v.Fails)
	}
}

// TestOrderInBlock: within one block (the same indentation, nothing less
// indented between), a neighbour of another shape orders the new line: an
// optional member `zqnew?: T;` between the required `a: T;` and `b: T;`.
// Outside the block a namesake does not count.
func TestOrderInBlock(t *testing.T) {
	c := &Order{New: nm("zqnew"), Prev: nm("a"), Next: nm("b")}
	o := tree.Tree{"x.d.ts": []byte("interface X {\n    a: string;\n    b: number;\n}\n")}
	good := tree.Tree{"x.d.ts": []byte("interface X {\n    a: string;\n    zqnew?: string;\n    b: number;\n}\n")}
	bad := tree.Tree{"x.d.ts": []byte("interface X {\n    a: string;\n    b: number;\n    zqnew?: string;\n}\n")}
	if v := c.Decide(o, good); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("in order: %+v", v)
	}
	if v := c.Decide(o, bad); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "zqnew?: string;") {
		t.Errorf("optional member moved after the required ones: want a failure, got %+v", v)
	}
	// A neighbour the input declares twice (b of X and of Y) counts in the
	// new line's block only.
	shared := &Order{New: nm("zqnew"), Prev: nm("a"), Next: nm("b"), NextShared: true}
	o = tree.Tree{"x.d.ts": []byte("interface Y {\n    b: number;\n}\ninterface X {\n    a: string;\n    b: number;\n}\n")}
	good = tree.Tree{"x.d.ts": []byte("interface Y {\n    b: number;\n}\ninterface X {\n    a: string;\n    zqnew: string;\n    b: number;\n}\n")}
	bad = tree.Tree{"x.d.ts": []byte("interface Y {\n    b: number;\n}\ninterface X {\n    a: string;\n    b: number;\n    zqnew: number;\n}\n")}
	if v := shared.Decide(o, good); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("shared neighbour, in order: %+v", v)
	}
	if v := shared.Decide(o, bad); len(v.Fails) != 1 {
		t.Errorf("shared neighbour, out of order: want a failure, got %+v", v)
	}
}

// TestOrderWrappedInBlock: a statement wrapped over several lines is one
// line of its block. ts-proto 1.82.5's fromJSON sets a repeated or bytes
// field first, then tests each field in turn; the test of a field with a
// long name wraps, which must not leave its initialiser the one line of
// the new name in the block (ordered against the previous field's test).
func TestOrderWrappedInBlock(t *testing.T) {
	c := &Order{New: nm("_zqpznqry_zqmjbpie"), Prev: nm("sensor_id")}
	body := func(test string) string {
		return "  fromJSON(object: any): Reading {\n    const message = { ...baseReading } as Reading;\n    message.tags = [];\n" +
			"    message._zqpznqry_zqmjbpie = new Uint8Array();\n" +
			"    if (object.sensor_id !== undefined && object.sensor_id !== null) {\n      message.sensor_id = String(object.sensor_id);\n    } else {\n      message.sensor_id = \"\";\n    }\n" +
			test + "      message._zqpznqry_zqmjbpie = bytesFromBase64(object._zqpznqry_zqmjbpie);\n    }\n    return message;\n  },\n"
	}
	o := tree.Tree{"s.ts": []byte("  fromJSON(object: any): Reading {\n    const message = { ...baseReading } as Reading;\n    message.tags = [];\n" +
		"    if (object.sensor_id !== undefined && object.sensor_id !== null) {\n      message.sensor_id = String(object.sensor_id);\n    } else {\n      message.sensor_id = \"\";\n    }\n    return message;\n  },\n")}
	for name, test := range map[string]string{
		"on one line": "    if (object._zqpznqry_zqmjbpie !== undefined && object._zqpznqry_zqmjbpie !== null) {\n",
		"wrapped":     "    if (\n      object._zqpznqry_zqmjbpie !== undefined &&\n      object._zqpznqry_zqmjbpie !== null\n    ) {\n",
	} {
		if v := c.Decide(o, tree.Tree{"s.ts": []byte(body(test))}); len(v.Fails) != 0 {
			t.Errorf("%s: %+v", name, v.Fails)
		}
	}
	// A neighbour named in a wrapped condition orders the new line as the
	// statement's first line does.
	d := &Order{New: nm("zqnew"), Prev: nm("a")}
	o = tree.Tree{"f.ts": []byte("function f() {\n    if (\n        a !== undefined\n    ) {\n        g();\n    }\n}\n")}
	good := tree.Tree{"f.ts": []byte("function f() {\n    if (\n        a !== undefined\n    ) {\n        g();\n    }\n    zqnew = 1;\n}\n")}
	bad := tree.Tree{"f.ts": []byte("function f() {\n    zqnew = 1;\n    if (\n        a !== undefined\n    ) {\n        g();\n    }\n}\n")}
	if v := d.Decide(o, good); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("after a wrapped statement: %+v", v)
	}
	if v := d.Decide(o, bad); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "zqnew = 1;") {
		t.Errorf("before a wrapped statement: want a failure, got %+v", v)
	}
}

// TestOrderSkipsComments: a comment that names a neighbour is no line of
// it: with it counted, the block below has the neighbour twice and cannot
// decide, and the new member before it passes.
func TestOrderSkipsComments(t *testing.T) {
	c := &Order{New: nm("zqnew"), Prev: nm("a")}
	o := tree.Tree{"x.ts": []byte("interface X {\n    a: string;\n    // see a\n}\n")}
	bad := tree.Tree{"x.ts": []byte("interface X {\n    zqnew?: string;\n    a: string;\n    // see a\n}\n")}
	if v := c.Decide(o, bad); len(v.Fails) != 1 {
		t.Errorf("want a failure, got %+v", v)
	}
	for _, tc := range []struct {
		file, line string
		want       bool
	}{
		{"a.c", "    // x", true}, {"a.c", " * x", true}, {"a.c", " */", true}, {"a.c", "    *p = 1;", false},
		{"a.py", "  # x", true}, {"a.py", "  x # y", false}, {"a.txt", "// x", false}, {"a.c", "x = 1; // y", false},
	} {
		if got := commentLine(tc.file, tc.line); got != tc.want {
			t.Errorf("commentLine(%q, %q) = %v", tc.file, tc.line, got)
		}
	}
}

// TestAnalogyKindLine: a name of another declaration inside the sibling's
// own is part of the sibling's name when another declaration of the
// sibling's kind, whose name holds it at the same place, has the same line
// in o: protoc-c writes the tables of an enum's values, named after their
// enum (ORDER_STATE_OPEN in OrderState), one line a value. A shared part
// alone settles nothing (a count of the enumeration Floor is no line of
// the attribute FloorCount, however many attributes start with Floor), and
// neither does a kin's line alone (the getter of a field order_id is no
// line of the rpc GetOrderId).
func TestAnalogyKindLine(t *testing.T) {
	up := func(s string) Name { return Name{Forms: []string{s, strings.ToLower(s), s}} }
	enum := Name{Forms: []string{"OrderState", "order_state", "ORDER_STATE"}}
	open, paid, unspec := up("ORDER_STATE_OPEN"), up("ORDER_STATE_PAID"), up("ORDER_STATE_UNSPECIFIED")
	c := &Analogy{
		Renames: []Rename{{From: open, To: up("ZQNEW")}},
		Others:  []Name{enum, unspec, open, paid},
		Kin:     []Name{unspec, paid},
	}
	const byNumber = "static const ProtobufCEnumValue shop__order_state__enum_values_by_number[3] =\n{\n" +
		"  { \"ORDER_STATE_UNSPECIFIED\", \"SHOP__ORDER_STATE__ORDER_STATE_UNSPECIFIED\", 0 },\n" +
		"  { \"ORDER_STATE_OPEN\", \"SHOP__ORDER_STATE__ORDER_STATE_OPEN\", 1 },\n" +
		"  { \"ORDER_STATE_PAID\", \"SHOP__ORDER_STATE__ORDER_STATE_PAID\", 2 },\n"
	const byName = "};\nstatic const ProtobufCEnumValueIndex shop__order_state__enum_values_by_name[3] =\n{\n" +
		"  { \"ORDER_STATE_OPEN\", 1 },\n  { \"ORDER_STATE_PAID\", 2 },\n  { \"ORDER_STATE_UNSPECIFIED\", 0 },\n"
	o := tree.Tree{"s.pb-c.c": []byte(byNumber + byName + "};\n")}
	good := byNumber + "  { \"ZQNEW\", \"SHOP__ORDER_STATE__ZQNEW\", 3 },\n" + byName + "  { \"ZQNEW\", 3 },\n};\n"
	if v := c.Decide(o, tree.Tree{"s.pb-c.c": []byte(good)}); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("enum value: want a pass, got %+v", v)
	}
	// The last entry of the table by name dropped.
	bad := strings.Replace(good, "  { \"ZQNEW\", 3 },\n", "", 1)
	if v := c.Decide(o, tree.Tree{"s.pb-c.c": []byte(bad)}); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, `{ "ZQNEW", #`) {
		t.Errorf("enum value: want the missing entry by name, got %+v", v)
	}
	// Without a value of the enum beside the sibling, nothing tells.
	c.Kin = nil
	if v := c.Decide(o, tree.Tree{"s.pb-c.c": []byte(bad)}); len(v.Fails) != 0 {
		t.Errorf("enum value without kin: want no failure, got %+v", v)
	}

	// The attributes FloorCount and FloorHeight both start with the
	// enumeration Floor, whose count E_FLOOR_COUNT is in types.h: that is
	// no line of FloorCount, since types.h has no E_FLOOR_HEIGHT. Their
	// lines in attrs.h are theirs.
	floorCount := Name{Forms: []string{"FloorCount", "floor_count", "FLOOR_COUNT"}}
	floorHeight := Name{Forms: []string{"FloorHeight", "floor_height", "FLOOR_HEIGHT"}}
	c = &Analogy{
		Renames: []Rename{{From: floorCount, To: Name{Forms: []string{"Zqnew", "zqnew", "ZQNEW"}}}},
		Others:  []Name{nm("Floor"), floorCount, floorHeight},
		Kin:     []Name{floorHeight},
	}
	o = tree.Tree{
		"attrs.h": []byte("#define E_ATTR_FLOOR_COUNT 5\n#define E_ATTR_FLOOR_HEIGHT 6\n"),
		"types.h": []byte("#define E_FLOOR_COUNT 5\n"),
	}
	o2 := tree.Tree{
		"attrs.h": []byte("#define E_ATTR_FLOOR_COUNT 5\n#define E_ATTR_FLOOR_HEIGHT 6\n#define E_ATTR_ZQNEW 7\n"),
		"types.h": []byte("#define E_FLOOR_COUNT 5\n"),
	}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("false alarm on the count of Floor: %+v", v)
	}
	o2["attrs.h"] = o["attrs.h"]
	if v := c.Decide(o, o2); len(v.Fails) != 1 || v.Fails[0].File != "attrs.h" {
		t.Errorf("want a failure of attrs.h, got %+v", v)
	}

	// The rpcs GetUserId and GetOrderId, and the fields user_id and
	// order_id of Resp: both getters are in o, but the field in the
	// sibling's name is not in its kin's.
	field := func(snake, pascal string) Name { return Name{Forms: []string{snake, snake, pascal}} }
	userID, orderID := field("user_id", "UserId"), field("order_id", "OrderId")
	getUser, getOrder := field("GetUserId", "GetUserId"), field("GetOrderId", "GetOrderId")
	getUser.Forms[1], getOrder.Forms[1] = "get_user_id", "get_order_id"
	c = &Analogy{
		Renames: []Rename{{From: getUser, To: Name{Forms: []string{"Zqnew", "zqnew", "Zqnew"}}}},
		Others:  []Name{userID, orderID, getUser, getOrder},
		Kin:     []Name{getOrder},
	}
	getters := "func (x *Resp) GetUserId() string {\nfunc (x *Resp) GetOrderId() string {\n"
	o = tree.Tree{"s.pb.go": []byte(getters)}
	if v := c.Decide(o, tree.Tree{"s.pb.go": []byte(getters + "\tZqnew(ctx context.Context) error\n")}); len(v.Fails) != 0 {
		t.Errorf("false alarm on the getter of a field: %+v", v.Fails)
	}
}

// TestAnalogyLoose: a sibling split into words otherwise than the new
// declaration (ORDER_STATE_OPEN beside the one-word ZQNEW) is taken when
// its lines hold it only in forms that coincide for both names alike
// (protoc-c writes an enum value's name as written only), and passed over
// for the next when a line holds it in a form that differs from another
// for one name and not for the other (protoc-gen-go's json=unyrToijl
// beside name=unyr_toijl, written for no one-word field).
func TestAnalogyLoose(t *testing.T) {
	forms := func(s string) Name {
		return Name{Forms: []string{s, strings.ToLower(s), strings.ToUpper(s), strings.ReplaceAll(strings.ToLower(s), "_", "")}}
	}
	open, paid := forms("ORDER_STATE_OPEN"), forms("ORDER_STATE_PAID")
	c := &Analogy{
		Others: []Name{open, paid},
		Loose:  [][]Rename{{{From: open, To: forms("ZQNEW")}}},
	}
	o := tree.Tree{"s.c": []byte("  { \"ORDER_STATE_OPEN\", 1 },\n  { \"ORDER_STATE_PAID\", 2 },\n")}
	bad := tree.Tree{"s.c": []byte("  { \"ORDER_STATE_OPEN\", 1 },\n  { \"ORDER_STATE_PAID\", 2 },\n  { \"ZQNEWS\", 3 },\n")}
	if v := c.Decide(o, bad); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "ORDER_STATE_OPEN") {
		t.Errorf("want a failure, got %+v", v)
	}
	good := tree.Tree{"s.c": []byte("  { \"ORDER_STATE_OPEN\", 1 },\n  { \"ORDER_STATE_PAID\", 2 },\n  { \"ZQNEW\", 3 },\n")}
	if v := c.Decide(o, good); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("want a pass, got %+v", v)
	}

	// The field unyr_toijl's line holds its camel case, which differs from
	// its snake case; zqnew's do not: the field is no sibling of it, and
	// without another the check is undecided.
	camel := func(s, c string) Name { return Name{Forms: []string{s, s, c, strings.ToUpper(c[:1]) + c[1:]}} }
	unyr, email := camel("unyr_toijl", "unyrToijl"), camel("email", "email")
	c = &Analogy{Others: []Name{unyr, email}, Loose: [][]Rename{{{From: unyr, To: camel("zqnew", "zqnew")}}}}
	o = tree.Tree{"m.pb.go": []byte("\tUnyrToijl string `protobuf:\"bytes,1,opt,name=unyr_toijl,json=unyrToijl,proto3\"`\n\tEmail string `protobuf:\"bytes,2,opt,name=email,proto3\"`\n")}
	o2 := tree.Tree{"m.pb.go": []byte(string(o["m.pb.go"]) + "\tZqnew string `protobuf:\"bytes,3,opt,name=zqnew,proto3\"`\n")}
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) == 0 {
		t.Errorf("json= of a two-word field: want undecided, got %+v", v)
	}
	// With the one-word email next, email is the sibling.
	c.Loose = append(c.Loose, []Rename{{From: email, To: camel("zqnew", "zqnew")}})
	if v := c.Decide(o, o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("want email as the sibling and a pass, got %+v", v)
	}
	bad = tree.Tree{"m.pb.go": []byte(string(o["m.pb.go"]) + "\tZqnew string `protobuf:\"bytes,3,opt,name=zqnew,json=zqnew,proto3\"`\n")}
	if v := c.Decide(o, bad); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "email") {
		t.Errorf("want a failure with email as the sibling, got %+v", v)
	}
}

// TestLocalityReflow: a formatter that wraps a list grown past its line
// width lays its old words out anew, with the new declaration's among
// them; the same hunk with an old word dropped, changed or moved is a
// failure.
func TestLocalityReflow(t *testing.T) {
	o := tree.Tree{"m.ts": []byte("function base() {\n  return { books: [], label: \"\" };\n}\n")}
	wrapped := tree.Tree{"m.ts": []byte("function base() {\n  return {\n    books: [],\n    zqnew: 0,\n    label: \"\",\n  };\n}\n")}
	l := &Locality{Fresh: []Name{nm("zqnew")}, Hunks: true, Reflow: true}
	if v := l.Decide(o, wrapped); len(v.Fails) != 0 {
		t.Errorf("wrapped: false alarm %+v", v.Fails)
	}
	l.Reflow = false
	if v := l.Decide(o, wrapped); len(v.Fails) != 1 {
		t.Errorf("wrapped, without reflow: want a failure, got %+v", v.Fails)
	}
	l.Reflow = true
	for name, bad := range map[string]string{
		"dropped": "function base() {\n  return {\n    books: [],\n    zqnew: 0,\n  };\n}\n",
		"changed": "function base() {\n  return {\n    books: [],\n    zqnew: 0,\n    title: \"\",\n  };\n}\n",
		"moved":   "function base() {\n  return {\n    label: \"\",\n    zqnew: 0,\n    books: [],\n  };\n}\n",
	} {
		if v := l.Decide(o, tree.Tree{"m.ts": []byte(bad)}); len(v.Fails) != 1 {
			t.Errorf("%s: want a failure, got %+v", name, v.Fails)
		}
	}
}

// TestLocalityHelpers: a helper function the generator writes once a file
// needs it, whose first line a helpers pattern matches, is explained; one
// that matches no pattern is not, nor a change of an old line beside it.
func TestLocalityHelpers(t *testing.T) {
	o := tree.Tree{"m.ts": []byte("export interface M {\n  a: string;\n}\n")}
	fu := "export interface M {\n  a: string;\n  zqnew: number;\n}\n\nfunction longToNumber(x: Long): number {\n  return x.toNumber();\n}\n"
	// without hunks: lines next to the new ones are not the new
	// declaration's by that alone
	l := &Locality{Fresh: []Name{nm("zqnew")}, Helpers: []*regexp.Regexp{regexp.MustCompile(`^function [a-z]\w*\(`)}}
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(fu)}); len(v.Fails) != 0 {
		t.Errorf("helper: false alarm %+v", v.Fails)
	}
	other := strings.Replace(fu, "function longToNumber", "export function LongToNumber", 1)
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(other)}); len(v.Fails) != 1 {
		t.Errorf("no helper: want a failure, got %+v", v.Fails)
	}
	changed := strings.Replace(fu, "  a: string;", "  a: number;", 1)
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(changed)}); len(v.Fails) != 1 {
		t.Errorf("an old line changed: want a failure, got %+v", v.Fails)
	}
}

// TestAnalogyGeneratorWords: an enumerator ERROR occurs at an underscore
// boundary in the generator's own INTERNAL_ERROR (Thrift's service code),
// which no other enumerator has a line like: that line is not the
// sibling's, and the new enumerator is due no INTERNAL_ZQNEW. Its prefixed
// name E_ERROR, which its kin E_OK has too, stays its own.
func TestAnalogyGeneratorWords(t *testing.T) {
	up := func(s string) Name { return Name{Forms: []string{s, strings.ToLower(s), s}} }
	errName, ok := up("ERROR"), up("OK")
	c := &Analogy{
		Renames: []Rename{{From: errName, To: up("ZQNEW")}},
		Others:  []Name{errName, ok},
		Kin:     []Name{ok},
	}
	const base = "enum E { E_OK = 0, E_ERROR = 1 };\n" +
		"  E_OK = 0,\n  E_ERROR = 1,\n" +
		"  ::apache::thrift::TApplicationException x(::apache::thrift::TApplicationException::INTERNAL_ERROR, \"Internal error\");\n"
	o := tree.Tree{"s.cpp": []byte(base)}
	good := tree.Tree{"s.cpp": []byte(base + "  E_ZQNEW = 2,\n")}
	if v := c.Decide(o, good); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("false alarm on INTERNAL_ERROR: %+v", v)
	}
	if v := c.Decide(o, o); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "E_ZQNEW = #") {
		t.Errorf("want the missing E_ZQNEW line, got %+v", v)
	}
	// Without kin nothing tells the generator's words from the sibling's.
	c.Kin = nil
	if v := c.Decide(o, good); len(v.Fails) != 1 {
		t.Errorf("without kin: want INTERNAL_ZQNEW missing, got %+v", v)
	}
}

// TestOrderNamesakeLines: a oneof member short_code whose Pascal form is
// also the name of a nested message ShortCode. protoc-gen-go names the
// member's wrapper PhoneNumber_ShortCode_ and the message
// PhoneNumber_ShortCode, further down: the message's line is no line of
// the member, and a new member's wrapper after short_code's is in order.
func TestOrderNamesakeLines(t *testing.T) {
	member := Name{Forms: []string{"short_code", "shortCode", "ShortCode"}}
	nested := Name{Forms: []string{"ShortCode", "short_code", "SHORT_CODE"}}
	zq := Name{Forms: []string{"zqnew", "zqnew", "Zqnew"}}
	c := &Order{New: zq, Prev: member, Others: []Name{member, nested, zq}}
	base := "type PhoneNumber_E164Number struct {\n}\ntype PhoneNumber_ShortCode_ struct {\n}\ntype PhoneNumber_ShortCode struct {\n}\n"
	o := tree.Tree{"x.pb.go": []byte(base)}
	good := strings.Replace(base, "type PhoneNumber_ShortCode struct", "type PhoneNumber_Zqnew struct {\n}\ntype PhoneNumber_ShortCode struct", 1)
	if v := c.Decide(o, tree.Tree{"x.pb.go": []byte(good)}); len(v.Fails) != 0 {
		t.Errorf("false alarm: %+v", v.Fails)
	}
}

// TestOrderGeneratorWords: the neighbour Optional (a nested message)
// occurs in protoc-c's own PROTOBUF_C_LABEL_OPTIONAL, above the new
// message's offsetof line in its block: that is no line of the neighbour,
// for o′ has no PROTOBUF_C_LABEL_ZQNEW; Onnx__TypeProto__Optional is one,
// beside Onnx__TypeProto__Zqnew.
func TestOrderGeneratorWords(t *testing.T) {
	up := func(s string) Name { return Name{Forms: []string{s, strings.ToLower(s), strings.ToUpper(s)}} }
	c := &Order{New: up("Zqnew"), Prev: up("Map"), Next: up("Optional"), Others: []Name{up("Map"), up("Optional"), up("Zqnew")}}
	fields := func(m string) string {
		return "  {\n    PROTOBUF_C_LABEL_OPTIONAL,\n    offsetof(Onnx__TypeProto__" + m + ", key_type),\n  },\n" +
			"  {\n    PROTOBUF_C_LABEL_OPTIONAL,\n    offsetof(Onnx__TypeProto__" + m + ", value_type),\n  },\n"
	}
	optional := "  {\n    offsetof(Onnx__TypeProto__Optional, elem_type),\n  },\n"
	o := tree.Tree{"x.pb-c.c": []byte(fields("Map") + optional)}
	if v := c.Decide(o, tree.Tree{"x.pb-c.c": []byte(fields("Map") + fields("Zqnew") + optional)}); len(v.Fails) != 0 {
		t.Errorf("false alarm: %+v", v.Fails)
	}
	// With Optional's lines as many as the others', its place decides.
	o = tree.Tree{"x.pb-c.c": []byte(fields("Map") + fields("Optional"))}
	if v := c.Decide(o, tree.Tree{"x.pb-c.c": []byte(fields("Map") + fields("Optional") + fields("Zqnew"))}); len(v.Fails) == 0 {
		t.Errorf("Zqnew after Optional: want a failure, got %+v", v)
	}
}

// TestLocalityReflowBlock: a block inserted before a neighbour whose line
// the formatter then wraps: the block taken out, the wrapped lines hold
// the old line's words; a word of the neighbour changed is a failure.
func TestLocalityReflowBlock(t *testing.T) {
	o := tree.Tree{"m.ts": []byte("function f() {\n  return {\n    tags: isArray(o.tags) ? o.tags.map(String) : [],\n  };\n}\n")}
	fu := "function f() {\n  return {\n    zqnew: isObject(o.zqnew)\n      ? reduce(\n        (acc: number) => {\n          return acc;\n        },\n      )\n      : {},\n    tags: isArray(o.tags)\n      ? o.tags.map(String)\n      : [],\n  };\n}\n"
	l := &Locality{Fresh: []Name{nm("zqnew")}, Reflow: true}
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(fu)}); len(v.Fails) != 0 {
		t.Errorf("a block and a wrapped neighbour: false alarm %+v", v.Fails)
	}
	bad := strings.Replace(fu, "o.tags.map(String)", "o.tags.map(Number)", 1)
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(bad)}); len(v.Fails) != 1 {
		t.Errorf("the neighbour changed: want a failure, got %+v", v.Fails)
	}
}

// TestLocalityReflowWrapped: the old line wrapped with the new block last,
// and a new block elsewhere like the old code around it, which a line diff
// pairs with the old lines: the wrapped line is found wherever o′ holds it.
func TestLocalityReflowWrapped(t *testing.T) {
	o := tree.Tree{"m.ts": []byte("  fromJSON(o: any): M {\n    return { id: isSet(o.id) ? String(o.id) : \"\" };\n  },\n")}
	fu := "  fromJSON(o: any): M {\n    return {\n      id: isSet(o.id) ? String(o.id) : \"\",\n      zqnew: isObject(o.zqnew)\n        ? reduce(o.zqnew)\n        : {},\n    };\n  },\n  fromJSON(o: any): M_ZqnewEntry {\n    return { key: isSet(o.key) ? Number(o.key) : 0 };\n  },\n"
	l := &Locality{Fresh: []Name{{Forms: []string{"zqnew", "Zqnew"}}}, Hunks: true, Reflow: true}
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(fu)}); len(v.Fails) != 0 {
		t.Errorf("wrapped, the block last: false alarm %+v", v.Fails)
	}
	bad := strings.Replace(fu, "      id: isSet(o.id) ? String(o.id) : \"\",\n", "      id: isSet(o.id) ? Number(o.id) : \"\",\n", 1)
	if v := l.Decide(o, tree.Tree{"m.ts": []byte(bad)}); len(v.Fails) != 1 {
		t.Errorf("the wrapped line changed: want a failure, got %+v", v.Fails)
	}
}

// TestAnalogyReflow: the new member's line, which its longer name took
// past the formatter's line width, wrapped over three lines of o′.
func TestAnalogyReflow(t *testing.T) {
	o := tree.Tree{"m.ts": []byte("export interface M {\n  code: bigint;\n}\nfunction f() {\n  message.code = (object.code !== undefined) ? BigInt(object.code) : undefined;\n}\n")}
	fu := "export interface M {\n  code: bigint;\n  zqnewname: bigint;\n}\nfunction f() {\n  message.code = (object.code !== undefined) ? BigInt(object.code) : undefined;\n  message.zqnewname = (object.zqnewname !== undefined)\n    ? BigInt(object.zqnewname)\n    : undefined;\n}\n"
	c := &Analogy{Renames: []Rename{{From: nm("code"), To: nm("zqnewname")}}}
	if v := c.Decide(o, tree.Tree{"m.ts": []byte(fu)}); len(v.Fails) != 1 {
		t.Errorf("without reflow: want a failure, got %+v", v)
	}
	c.Reflow = true
	if v := c.Decide(o, tree.Tree{"m.ts": []byte(fu)}); len(v.Fails) != 0 {
		t.Errorf("wrapped: false alarm %+v", v.Fails)
	}
	bad := strings.Replace(fu, "    ? BigInt(object.zqnewname)\n", "    ? Number(object.zqnewname)\n", 1)
	if v := c.Decide(o, tree.Tree{"m.ts": []byte(bad)}); len(v.Fails) != 1 {
		t.Errorf("wrapped and changed: want a failure, got %+v", v)
	}
}

// TestAnalogyDigitAfterUnderscore: a new field named with a digit after an
// underscore (zqa_2zqb) has a Pascal case that generators spell in more
// than one way: protoc-gen-go writes Zqa_2Zqb (foxglove's
// CameraCalibration.proto, beside distortion_model, was a false alarm of
// the derived Go pack). The sibling's lines that hold it in that form are
// left out when o′ does not have the predicted spelling, and checked when
// it has.
func TestAnalogyDigitAfterUnderscore(t *testing.T) {
	forms := func(s string) Name {
		return NewName([]string{s, namecase.Snake(s), namecase.Upper(s), namecase.Camel(s), namecase.Pascal(s)})
	}
	c := &Analogy{Renames: []Rename{{From: forms("distortion_model"), To: forms("zqa_2zqb")}}, Others: []Name{forms("timestamp")}}
	o := tree.Tree{"c.pb.go": []byte("type C struct {\n" +
		"\tTimestamp string `protobuf:\"bytes,1,opt,name=timestamp,proto3\" json:\"timestamp,omitempty\"`\n" +
		"\tDistortionModel string `protobuf:\"bytes,3,opt,name=distortion_model,json=distortionModel,proto3\" json:\"distortion_model,omitempty\"`\n" +
		"}\n" +
		"func (x *C) GetDistortionModel() string {\n" +
		"\t\"distortion_model\",\n")}
	add := func(field, getter string, table bool) tree.Tree {
		s := strings.Replace(string(o["c.pb.go"]), "}\n", field+"}\n", 1) + getter
		if table {
			s += "\t\"zqa_2zqb\",\n"
		}
		return tree.Tree{"c.pb.go": []byte(s)}
	}
	field := func(pascal string) string {
		return "\t" + pascal + " string `protobuf:\"bytes,4,opt,name=zqa_2zqb,json=zqa2zqb,proto3\" json:\"zqa_2zqb,omitempty\"`\n"
	}
	if v := c.Decide(o, add(field("Zqa_2Zqb"), "func (x *C) GetZqa_2Zqb() string {\n", true)); len(v.Fails) != 0 {
		t.Errorf("protoc-gen-go's spelling: false alarm %+v", v.Fails)
	}
	// predicted spelling: checked as any other name
	if v := c.Decide(o, add(field("Zqa2zqb"), "func (x *C) GetZqa2zqb() string {\n", true)); len(v.Fails) != 0 {
		t.Errorf("the predicted spelling: false alarm %+v", v.Fails)
	}
	if v := c.Decide(o, add(field("Zqa2zqb"), "func (x *C) GetZqa2zqb() string {\n", false)); len(v.Fails) != 1 {
		t.Errorf("a line in a form with no doubt missing: want a failure, got %+v", v)
	}
	if v := c.Decide(o, add(field("Zqa2zqb"), "", true)); len(v.Fails) != 1 {
		t.Errorf("the getter missing in the predicted spelling: want a failure, got %+v", v)
	}
}

// TestLocalityClone: protoc's Java writes lines of a copied member that do
// not name it. An rpc copied with its request and response types gets a
// case of the prototype switches that names those types only; a oneof
// field copied under the fresh number 17 gets a case of writeTo that
// names the oneof and the number. With Copies, both are the copy's; a
// line that names another declaration (the sibling's), or one o does not
// have, stays unexplained.
func TestLocalityClone(t *testing.T) {
	const req = "org.apache.hadoop.hbase.protobuf.generated.MultiRowMutationProtos.MutateRowsRequest"
	o := "    public  void mutateRows(\n" +
		"        " + req + " request) {\n" +
		"    }\n" +
		"      switch(method.getIndex()) {\n" +
		"        case 0:\n" +
		"          return " + req + ".getDefaultInstance();\n" +
		"        default:\n" +
		"          throw new java.lang.AssertionError(\"Can't get here.\");\n" +
		"      }\n" +
		"      if (valueCase_ == 7) {\n" +
		"        output.writeMessage(7, (onnx.OnnxMl.TypeProto.Opaque) value_);\n" +
		"      }\n" +
		"      getUnknownFields().writeTo(output);\n" +
		"      done(mutateRows, " + req + ".getDefaultInstance());\n"
	fu := strings.Replace(o, "    }\n      switch", "    }\n    public  void zqxfpptqFppt(\n        "+req+" request) {\n    }\n      switch", 1)
	fu = strings.Replace(fu, "        default:\n", "        case 1:\n          return "+req+".getDefaultInstance();\n        default:\n", 1)
	fu = strings.Replace(fu, "      getUnknownFields()", "      if (valueCase_ == 17) {\n        output.writeMessage(17, (onnx.OnnxMl.TypeProto.Opaque) value_);\n      }\n      getUnknownFields()", 1)
	name := func(s string) Name {
		return NewName([]string{s, namecase.Snake(s), namecase.Camel(s), namecase.Pascal(s)})
	}
	// (a field row: a word of the class named after the file,
	// MultiRowMutationProtos, which names no declaration)
	others := []Name{name("MutateRows"), name("value"), name("opaque_type"), name("MutateRowsResponse"), name("row")}
	cl := &CopyLines{Numbers: []int64{17}, Named: []Name{name("MutateRowsRequest"), name("Opaque")}, Others: others, Stem: "MultiRowMutation"}
	l := &Locality{Fresh: []Name{name("ZqxfpptqFppt")}, Numbers: Any, Punctuation: Any, Hunks: true}
	ot, ft := tree.Tree{"M.java": []byte(o)}, tree.Tree{"M.java": []byte(fu)}
	if v := l.Decide(ot, ft); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Actual, "getDefaultInstance") || !strings.Contains(v.Fails[0].Actual, "writeMessage") {
		t.Fatalf("without Copies: want the failure of the corpus, got %+v", v.Fails)
	}
	l.Copies = cl
	if v := l.Decide(ot, ft); len(v.Fails) != 0 {
		t.Errorf("the copy's lines: false alarm %+v", v.Fails)
	}
	noStem := *cl
	noStem.Stem = ""
	l.Copies = &noStem
	if v := l.Decide(ot, ft); len(v.Fails) != 1 {
		t.Errorf("Row of MultiRowMutationProtos, without the file's name: want a failure, got %+v", v.Fails)
	}
	l.Copies = cl
	// (lines away from the copy's, which hunks would take: at the top)
	for what, bad := range map[string]string{
		"a line of the sibling repeated":       "      done(mutateRows, " + req + ".getDefaultInstance());\n" + fu,
		"a line o does not have":               "      return " + req + ".newBuilder();\n" + fu,
		"the response's case, not in the text": "          return MutateRowsResponse.getDefaultInstance();\n" + fu,
		"o′ holding a line of o thrice":        "          return " + req + ".getDefaultInstance();\n" + fu,
	} {
		if v := l.Decide(ot, tree.Tree{"M.java": []byte(bad)}); len(v.Fails) != 1 {
			t.Errorf("%s: want a failure, got %+v", what, v.Fails)
		}
	}
	if !holdsNumber("  output.writeInt64(17, x);", []int64{17}) || holdsNumber("  writeInt17(x); y = 170; z = 1.17;", []int64{17}) {
		t.Error("holdsNumber: a number of its own, not digits of a word or of a longer number")
	}
}

// TestAnalogyCommentAtEnd: protoc-c's index of methods by name writes a
// comma after every entry but the last, before the comment that names
// the method. A copy named Zqqapnmw… sorts last: its entry has no comma
// where its sibling ExecService's has one, as the end of any line of a
// list would. A missing entry is still a failure.
func TestAnalogyCommentAtEnd(t *testing.T) {
	const o = "const unsigned client_service__method_indices_by_name[] = {\n" +
		"  3,        /* BulkLoadHFile */\n" +
		"  4,        /* ExecService */\n" +
		"  0,        /* Get */\n" +
		"  2         /* Scan */\n" +
		"};\n"
	fu := strings.Replace(o, "  2         /* Scan */\n", "  2,        /* Scan */\n  5         /* ZqqapnmwApnm */\n", 1)
	name := func(s string) Name { return NewName([]string{s}) }
	c := &Analogy{Renames: []Rename{{From: name("ExecService"), To: name("ZqqapnmwApnm")}}, Others: []Name{name("BulkLoadHFile"), name("Get"), name("Scan")}}
	if v := c.Decide(tree.Tree{"c.pb-c.c": []byte(o)}, tree.Tree{"c.pb-c.c": []byte(fu)}); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("the last entry, without its comma: false alarm %+v", v)
	}
	missing := strings.Replace(fu, "  5         /* ZqqapnmwApnm */\n", "", 1)
	if v := c.Decide(tree.Tree{"c.pb-c.c": []byte(o)}, tree.Tree{"c.pb-c.c": []byte(missing)}); len(v.Fails) != 1 {
		t.Errorf("the entry missing: want a failure, got %+v", v)
	}
	for in, want := range map[string]string{
		"  4,        /* ExecService */": "  4 /* ExecService */",
		"  2         /* Scan */":        "  2 /* Scan */",
		"  f(a, b);":                    "  f(a, b",
		"/* only a comment */":          "/* only a comment */",
	} {
		if got := trimEnd(in); got != want {
			t.Errorf("trimEnd(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLocalityCloneFileWithoutName: protoc's C++ cuts its serialized
// descriptor into string literals, and the name of an enum value copied
// as ZQGPUESE_Pues (number 11) falls across two of them: the .cc file
// names it nowhere, but gains the case of its number, its line. With
// Copies, the file's changes are explained as in a file that names it;
// without, it must be byte-identical.
func TestLocalityCloneFileWithoutName(t *testing.T) {
	o := "  \"IFIED\\020\\000\\022\\n\\n\\006KIND_A\\020\\001\\022\\n\\n\\006KIND_B\\020\\0022@\\n\\006Event\"\n" +
		"  \"s\\0226\\n\\005Watch\\022\\022.ours.layout.Event\\032\\022.ours.la\"\n" +
		"    false, false, 532, descriptor_table_protodef_in_2fours_2dlayout_2eproto,\n" +
		"    case 0:\n    case 1:\n    case 2:\n      return true;\n"
	fu := "  \"IFIED\\020\\000\\022\\n\\n\\006KIND_A\\020\\001\\022\\n\\n\\006KIND_B\\020\\002\\022\\021\\n\\rZQGPU\"\n" +
		"  \"ESE_Pues\\020\\0132@\\n\\006Events\\0226\\n\\005Watch\\022\\022.ours.lay\"\n" +
		"    false, false, 551, descriptor_table_protodef_in_2fours_2dlayout_2eproto,\n" +
		"    case 0:\n    case 1:\n    case 2:\n    case 11:\n      return true;\n"
	table := regexp.MustCompile(`^\s*"(\\.|[^"\\])*"\s*[+,]?\s*$`)
	l := &Locality{Fresh: []Name{NewName([]string{"ZQGPUESE_Pues", "zqgpuese_pues"})}, Numbers: Any, Punctuation: Any, Hunks: true, Also: []*regexp.Regexp{table}}
	ot, ft := tree.Tree{"x.pb.cc": []byte(o)}, tree.Tree{"x.pb.cc": []byte(fu)}
	if v := l.Decide(ot, ft); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "byte-identical") {
		t.Errorf("without Copies: want the file held byte-identical, got %+v", v.Fails)
	}
	l.Copies = &CopyLines{Numbers: []int64{11}}
	if v := l.Decide(ot, ft); len(v.Fails) != 0 {
		t.Errorf("with Copies: false alarm %+v", v.Fails)
	}
	other := strings.Replace(fu, "    case 11:\n", "    case 12:\n", 1)
	if v := l.Decide(ot, tree.Tree{"x.pb.cc": []byte(other)}); len(v.Fails) != 1 {
		t.Errorf("a case of another number: want a failure, got %+v", v.Fails)
	}
}

// tsProtoIgnore is the ignore of the order checks of
// examples/protobuf/derived/add-field.yaml and add-options.yaml.
const tsProtoIgnore = `^    message\.\w+ = (\[\]|\{\}|new Uint8Array\(\)|Buffer\.alloc\(0\));$|^export const protobufPackage = |^import `

func readTrees(t *testing.T, file string) map[string]tree.Tree {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	trees := map[string]tree.Tree{}
	for _, f := range ar.Files {
		dir, name, _ := strings.Cut(f.Name, "/")
		if trees[dir] == nil {
			trees[dir] = tree.Tree{}
		}
		trees[dir][name] = f.Data
	}
	return trees
}

// TestOrderIgnoreTsProtoInits: ts-proto 1.82.5 sets a message's lists,
// then its bytes fields, at the top of decode and fromJSON, each group in
// declaration order (testdata/order-tsproto-1.82.5.txtar, its real
// output). Those lines have the place of the field's other lines
// (`message.@`), so no not_places can leave them out; Ignore, on the whole
// line, does, and the fields' other lines still decide.
func TestOrderIgnoreTsProtoInits(t *testing.T) {
	trees := readTrees(t, "testdata/order-tsproto-1.82.5.txtar")
	inits := regexp.MustCompile(tsProtoIgnore)
	for _, tc := range []struct {
		followUp string
		order    Order
		initLine string // the new field's line at the top of decode
	}{
		{"after-signature", Order{New: nm("zqlist"), Prev: nm("signature"), Next: nm("gateway")}, "message.zqlist = [];"},
		{"before-readings", Order{New: nm("zqbytes"), Next: nm("readings")}, "message.zqbytes = new Uint8Array();"},
	} {
		o2 := trees[tc.followUp]
		c := tc.order
		v := c.Decide(trees["o"], o2)
		if len(v.Fails) == 0 || !strings.Contains(v.Fails[0].Message, tc.initLine) {
			t.Errorf("%s, every line: want the initialiser out of order, got %+v", tc.followUp, v)
		}
		c.Ignore = inits
		if v := c.Decide(trees["o"], o2); len(v.Fails) != 0 || len(v.Undecided) != 0 {
			t.Errorf("%s, the initialisers left out: %+v", tc.followUp, v)
		}
		for _, p := range c.ListPlaces(o2) {
			line := strings.Split(string(o2["sensors.ts"]), "\n")[p.Line-1]
			if p.Checked == inits.MatchString(line) {
				t.Errorf("%s: line %d %q listed with Checked %v", tc.followUp, p.Line, line, p.Checked)
			}
		}
		// The new field's test in fromJSON moved to the end, after the
		// next field's (or the previous one's): out of order, and seen
		// with the initialisers left out.
		text := string(o2["sensors.ts"])
		from := strings.Index(text, "  fromJSON(")
		at := from + strings.Index(text[from:], "    if (object."+c.New.Forms[0]+" !== undefined")
		end := at + strings.Index(text[at:], "\n    }\n") + len("\n    }\n")
		ret := from + strings.Index(text[from:], "    return message;\n")
		if from < 0 || at < from || ret < end {
			t.Fatalf("%s: no test of the new field in fromJSON", tc.followUp)
		}
		moved := text[:at] + text[end:ret] + text[at:end] + text[ret:]
		v = c.Decide(trees["o"], tree.Tree{"sensors.ts": []byte(moved)})
		if len(v.Fails) != 1 {
			t.Errorf("%s, decode's case moved: want a failure, got %+v", tc.followUp, v)
		}
	}
}

// TestOrderIgnoreTsProtoPackage: the top-level lines of ts-proto's module
// form one block, the file; 1.82.5 writes a message's base object there,
// which holds the new field (testdata/order-tsproto-1.82.5-package.txtar,
// its real output). The package's name, shop.orders.v1, on a top-level
// line too, holds the word orders, the next field, which the base object
// leaves out (a list): the block took the package line for the field's,
// before the new one. The lines that name the package and the imported
// modules name no field: the pack leaves them out.
func TestOrderIgnoreTsProtoPackage(t *testing.T) {
	trees := readTrees(t, "testdata/order-tsproto-1.82.5-package.txtar")
	c := Order{New: nm("zqlvecys"), Next: nm("orders")}
	v := c.Decide(trees["o"], trees["o2"])
	if len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, `export const protobufPackage = "shop.orders.v1";`) {
		t.Fatalf("every line: want the package's line against the base object, got %+v", v)
	}
	c.Ignore = regexp.MustCompile(tsProtoIgnore)
	if v := c.Decide(trees["o"], trees["o2"]); len(v.Fails) != 0 || len(v.Undecided) != 0 {
		t.Errorf("the package's line left out: %+v", v)
	}
	// The field's lines still decide: its test in fromJSON moved after
	// orders' is seen.
	text := string(trees["o2"]["orders.ts"])
	from := strings.Index(text, "  fromJSON(")
	at := from + strings.Index(text[from:], "    if (object.zqlvecys !== undefined")
	end := at + strings.Index(text[at:], "\n    }\n") + len("\n    }\n")
	next := from + strings.Index(text[from:], "    if (object.nextPageToken !== undefined")
	if from < 0 || at < from || next < end {
		t.Fatal("no test of zqlvecys before nextPageToken's in fromJSON")
	}
	moved := text[:at] + text[end:next] + text[at:end] + text[next:]
	if v := c.Decide(trees["o"], tree.Tree{"orders.ts": []byte(moved)}); len(v.Fails) != 1 {
		t.Errorf("zqlvecys's test after orders': want a failure, got %+v", v)
	}
}
