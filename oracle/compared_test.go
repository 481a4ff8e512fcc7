package oracle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// lines shows the lines of a comparison one per line: o's number and
// text, o′'s, what was looked for, and the role.
func cmpLines(c *result.Compared) string {
	var b strings.Builder
	ref := func(r *result.LineRef) string {
		if r == nil {
			return "-"
		}
		return fmt.Sprintf("%d:%s", r.N, strings.TrimSpace(r.Text))
	}
	for _, l := range c.Lines {
		fmt.Fprintf(&b, "%s | %s", ref(l.O), ref(l.O2))
		if l.Want != "" {
			fmt.Fprintf(&b, " | want %s", strings.TrimSpace(l.Want))
		}
		fmt.Fprintf(&b, " | %s\n", l.Role)
	}
	return b.String()
}

// TestLocalityCompared: a locality failure records the lines it could not
// explain, by their numbers in o and o′ and as they are in the files
// (numbers not masked), and what the relation allows.
func TestLocalityCompared(t *testing.T) {
	o := stateTree()
	o["p_types.h"] = []byte("// head\n// 2\n" + typesH)
	h := strings.Replace("// head\n// 2\n"+typesH, "    P_STATE_RED,\n", "", 1)
	o2 := withNew(h, strings.Replace(typesC, "};", "    \"Blue\",\n};", 1), "4")
	for _, tc := range []struct {
		l    Locality
		want map[string]string // by file
	}{
		{Locality{Fresh: []Name{nm("Zqnew")}, Numbers: 1, By: 1}, map[string]string{
			"p_types.c": "- | 6:\"Blue\", | unexplained\n",
			"p_types.h": "4:P_STATE_RED, | - | unexplained\n",
		}},
		// Numbers masked: the lines keep theirs.
		{Locality{Fresh: []Name{nm("Zqnew")}, Numbers: Any}, map[string]string{
			"p_types.c": "- | 6:\"Blue\", | unexplained\n",
			"p_types.h": "4:P_STATE_RED, | - | unexplained\n",
		}},
	} {
		v := tc.l.Decide(o, o2)
		if len(v.Fails) != len(tc.want) {
			t.Fatalf("%d failures, want %d: %+v", len(v.Fails), len(tc.want), v.Fails)
		}
		for _, f := range v.Fails {
			c := f.Compared
			if c == nil || c.Kind != result.CmpLocality {
				t.Fatalf("%s: compared %+v", f.File, c)
			}
			if got := cmpLines(c); got != tc.want[f.File] {
				t.Errorf("%s: lines\n%swant\n%s", f.File, got, tc.want[f.File])
			}
			if !strings.Contains(c.Expects, "mentions a fresh name (Zqnew, zqnew, ZQNEW)") || !strings.Contains(c.Expects, "Every line of "+f.File) {
				t.Errorf("%s: expects %q", f.File, c.Expects)
			}
		}
	}

	// A count changed by another amount: the old line faces the new one.
	v := (&Locality{Fresh: []Name{nm("Zqnew")}, Numbers: 1, By: 1}).Decide(stateTree(), withNew(typesH, typesC, "5"))
	if len(v.Fails) != 1 || v.Fails[0].Compared == nil {
		t.Fatalf("step: %+v", v.Fails)
	}
	c := v.Fails[0].Compared
	if got, want := cmpLines(c), "6:#define P_STATE_COUNT 3 | 7:#define P_STATE_COUNT 5 | over-limit\n"; got != want {
		t.Errorf("step: lines\n%swant\n%s", got, want)
	}
	if !strings.Contains(c.Lines[0].Why, "not each by +1") || !strings.Contains(c.Expects, "changed only in its numbers, each by +1 (at most 1 line in all)") {
		t.Errorf("step: why %q, expects %q", c.Lines[0].Why, c.Expects)
	}

	// Numbers not allowed at all.
	v = (&Locality{Fresh: []Name{nm("Zqnew")}}).Decide(stateTree(), withNew(typesH, typesC, "4"))
	if len(v.Fails) != 1 || v.Fails[0].Compared == nil || cmpLines(v.Fails[0].Compared) != "6:#define P_STATE_COUNT 3 | 7:#define P_STATE_COUNT 4 | over-limit\n" {
		t.Errorf("numbers: %+v", v.Fails)
	}
	if e := v.Fails[0].Compared.Expects; strings.Contains(e, "numbers") {
		t.Errorf("numbers: expects %q, which allows none", e)
	}

	// Files gone or new: no lines, what the check expects.
	v = (&Locality{Fresh: []Name{nm("Zqnew")}}).Decide(tree.Tree{"a.h": []byte("x\n")}, tree.Tree{"b.h": []byte("y\n")})
	if len(v.Fails) != 2 || v.Fails[0].Compared == nil || v.Fails[1].Compared == nil ||
		!strings.Contains(v.Fails[0].Compared.Expects, "a.h is in o, so it is in o′ too") ||
		!strings.Contains(v.Fails[1].Compared.Expects, "mentions a fresh name (Zqnew, zqnew, ZQNEW) in its path or its content") {
		t.Errorf("files gone and new: %+v", v.Fails)
	}
}

// TestOrderCompared: an order failure records the order it expected and
// the lines out of it, by their numbers in o′, each saying whose it is
// and where it must be.
func TestOrderCompared(t *testing.T) {
	c := &Order{New: nm("Zqnew"), Prev: nm("Green"), Next: nm("Yellow"), Others: []Name{nm("Red")}}
	o2 := withNew(typesH, typesC, "4")
	o2["p_types.h"] = []byte(strings.Replace(strings.Replace(typesH, "COUNT 3", "COUNT 4", 1), "    P_STATE_YELLOW,\n", "    P_STATE_YELLOW,\n    P_STATE_ZQNEW,\n", 1))
	v := c.Decide(stateTree(), o2)
	if len(v.Fails) != 1 || v.Fails[0].Compared == nil {
		t.Fatalf("after next: %+v", v.Fails)
	}
	cmp := v.Fails[0].Compared
	if cmp.Kind != result.CmpOrder || strings.Join(cmp.Order, " < ") != "Green < Zqnew < Yellow" {
		t.Errorf("kind %s, order %q", cmp.Kind, cmp.Order)
	}
	if got, want := cmpLines(cmp), "- | 4:P_STATE_YELLOW, | out-of-order\n- | 5:P_STATE_ZQNEW, | out-of-order\n"; got != want {
		t.Errorf("lines\n%swant\n%s", got, want)
	}
	if w := cmp.Lines[1].Why; w != "Zqnew's line: at the place `P_STATE_@,`, it must be before Yellow's" {
		t.Errorf("why of the new line: %q", w)
	}
	if w := cmp.Lines[0].Why; w != "Yellow's line: the relation puts Zqnew before it" {
		t.Errorf("why of the neighbour's line: %q", w)
	}
	if cmp.Expects != "The relation puts Zqnew after Green and before Yellow: wherever p_types.h lists them, at one place (lines of the same shape, the names masked) or in one block, the line of Zqnew is after Green's and before Yellow's; on a line that lists them, Zqnew stands between its neighbours." || cmp.Lines[0].O2.Text != "    P_STATE_YELLOW," {
		t.Errorf("expects %q, text %q (as in the file)", cmp.Expects, cmp.Lines[0].O2.Text)
	}

	// On one line, and without a previous neighbour.
	one := &Order{New: nm("Zqnew"), Next: nm("Green")}
	v = one.Decide(tree.Tree{"a": []byte("int a;\nx(Red, Green)\n")}, tree.Tree{"a": []byte("int a;\nx(Red, Green, Zqnew)\n")})
	if len(v.Fails) != 1 || v.Fails[0].Compared == nil {
		t.Fatalf("one line: %+v", v.Fails)
	}
	cmp = v.Fails[0].Compared
	if got := cmpLines(cmp); got != "- | 2:x(Red, Green, Zqnew) | out-of-order\n" || cmp.Order[0] != "(none)" || !strings.Contains(cmp.Expects, "The relation puts Zqnew before Green: ") {
		t.Errorf("one line: lines %q, order %q, expects %q", got, cmp.Order, cmp.Expects)
	}
}

// TestAnalogyCompared: an analogy failure records each line of the
// sibling in o facing the new member's line in o′ that matches it, or the
// line looked for; and the new member's lines no sibling line accounts
// for, as extra.
func TestAnalogyCompared(t *testing.T) {
	o := tree.Tree{"p.c": []byte(timers)}
	// The tick line missing, and a line of the new timer the sibling has
	// no counterpart of.
	o2 := strings.Replace(timers, "    p_timer_t t_jiy;\n", "    p_timer_t t_jiy;\n    p_timer_t t_zqnew;\n", 1)
	o2 = strings.Replace(o2, "void p_end", "int zqnew_extra;\nvoid p_end", 1)
	c := &Analogy{Renames: []Rename{{From: nm("jiy"), To: nm("Zqnew")}}, Others: []Name{nm("Delay")}}
	v := c.Decide(o, tree.Tree{"p.c": []byte(o2)})
	if len(v.Fails) != 1 || v.Fails[0].Compared == nil {
		t.Fatalf("%+v", v.Fails)
	}
	cmp := v.Fails[0].Compared
	want := "3:p_timer_t t_jiy; | 4:p_timer_t t_zqnew; | found\n" +
		"8:if (ctx->t_jiy.active) { ctx->t_jiy.remaining_ms -= 10; } | - | want if (ctx->t_{Zqnew|zqnew}.active) { ctx->t_{Zqnew|zqnew}.remaining_ms -= # | missing\n" +
		"- | 6:int zqnew_extra; | extra\n"
	if got := cmpLines(cmp); got != want {
		t.Errorf("lines\n%swant\n%s", got, want)
	}
	if cmp.Kind != result.CmpAnalogy || !strings.Contains(cmp.Expects, "The sibling jiy is a declaration of the same shape as Zqnew") || !strings.Contains(cmp.Expects, "(its numbers, written #, and the punctuation that ends it aside)") {
		t.Errorf("kind %s, expects %q", cmp.Kind, cmp.Expects)
	}
	if w := cmp.Lines[1].Why; w != "the sibling's line, renamed: o′ has it nowhere" {
		t.Errorf("why missing: %q", w)
	}
}

// TestBlocksCompared: a blocks failure records each block's lines where
// o′ has them, or looked for, then the lines of o′ that are neither o's
// nor a block's and those of o that o′ lacks.
func TestBlocksCompared(t *testing.T) {
	b := &Blocks{Name: "stmt", File: "p.c", Blocks: [][]string{{"zq = 0;"}, {"zq();"}}}
	o2 := strings.Replace(strings.Replace(blocksBase, "a();\n", "a(1);\n    zq = 0;\n", 1), "c();\n", "c();\n    zq(2);\n", 1)
	fails := b.Check(tree.Tree{"p.c": []byte(blocksBase)}, tree.Tree{"p.c": []byte(o2)})
	if len(fails) != 1 || fails[0].Compared == nil {
		t.Fatalf("%+v", fails)
	}
	cmp := fails[0].Compared
	want := "- | 4:zq = 0; | found\n" +
		"- | - | want zq(); | missing\n" +
		"- | 3:a(1); | unexplained\n" +
		"- | 12:zq(2); | unexplained\n" +
		"3:a(); | - | unexplained\n"
	if got := cmpLines(cmp); got != want {
		t.Errorf("lines\n%swant\n%s", got, want)
	}
	if cmp.Kind != "blocks" || !strings.HasPrefix(cmp.Expects, "p.c of o′ is p.c of o with 2 blocks of lines inserted") {
		t.Errorf("kind %s, expects %q", cmp.Kind, cmp.Expects)
	}
}
