package infer

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// cllSeeds are the CLL example programs, read.
func cllSeeds(t *testing.T) []Seed {
	t.Helper()
	files, err := filepath.Glob("../examples/cll/*.cll")
	if err != nil || len(files) == 0 {
		t.Fatalf("no CLL programs: %v", err)
	}
	var seeds []Seed
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, Seed{Name: filepath.Base(f), Src: b})
	}
	return seeds
}

func cllParser(t *testing.T) syntax.Parser {
	t.Helper()
	l, ok := lang.Named("cll")
	if !ok {
		t.Fatal("no language named cll")
	}
	p, err := l.Parser(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The lines that name a declaration of cllc's C (an event's clear, a
// timer's tick, a variable's reset, a parameter's getter, an enumeration's
// count) are no line the locality check lets differ on its own: no habit
// learned from the outputs of the CLL programs matches them. The root
// list of a CLL program holds declarations of seven kinds, and what one
// kind's lines are (those of Boolean variables, of the timers the
// program starts) is no position in the list.
func TestLearnCLLLinesOfDeclarations(t *testing.T) {
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Infer(context.Background(), cllSeeds(t), Options{Syntax: "cll", Parser: cllParser(t), Numbers: "decimal", Transpiler: tr, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Pack.Habits
	pats := slices.Concat(h.Tables, h.Variants, h.Boilerplate)
	for _, l := range res.Pack.Lists {
		pats = append(pats, l.Positional...)
	}
	for _, line := range []string{
		"    ctx->e_coin_inserted = false;",
		"    if (ctx->t_phase_timer.active && ctx->t_phase_timer.remaining_ms > 0) { ctx->t_phase_timer.remaining_ms -= CAR_WASH_CYCLE_TIME_MS; }",
		"    ctx->v_credit_cents = 0;",
		"    ctx->v_barrier_faults = 0;",
		"int32_t car_wash_config_bonus_every(void)",
		"    return car_wash_config.bonus_every;",
		"#define CAR_WASH_WASH_PROGRAM_COUNT 5",
	} {
		for _, p := range pats {
			if regexp.MustCompile(p).MatchString(line) {
				t.Errorf("the habit %s matches a line of a declaration: %s", p, line)
			}
		}
	}
	// The probes of copy-value-in-enumeration grow the count by one.
	for _, r := range res.Pack.Relations() {
		if r.Name == "copy-value-in-enumeration" && r.Kind.Step != 1 {
			t.Errorf("%s: step %d, want 1 (the count of an enumeration)", r.Name, r.Kind.Step)
		}
	}
}

// A word that declarations of two kinds of one list write (a type's
// name: Boolean of a parameter and of a variable) is no singular word: a
// Boolean parameter is copied. The states clause, once per program, is.
func TestStructureSingularWords(t *testing.T) {
	var trees []*syntax.Tree
	p := cllParser(t)
	for _, s := range cllSeeds(t) {
		tr, err := p.Parse(s.Name, s.Src)
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	body := listOf(Structure(trees, numlit.Decimal), "body")
	if body == nil {
		t.Fatal("no list body")
	}
	for _, c := range []struct {
		kind, word string
		singular   bool
	}{{"parameter", "Boolean", false}, {"variable", "Boolean", false}, {"attribute", "Integer", false}, {"state_list", "states", true}} {
		k := kindOf(body, c.kind)
		if k == nil {
			t.Fatalf("no kind %s in body", c.kind)
		}
		if got := slices.Contains(k.Singular, c.word); got != c.singular {
			t.Errorf("%s: %s singular %v, want %v (singular: %v)", c.kind, c.word, got, c.singular, k.Singular)
		}
	}
}

// numberSteps pairs the lines of a base and a follow-up that differ in
// their numbers only, and counts by how much each number changed.
func TestNumberSteps(t *testing.T) {
	base := map[string][]byte{"a.h": []byte("#define A_COUNT 4\n#define B_COUNT 9\nint x[] = {1, 2};\nkeep 7\n"), "b.h": []byte("n 0x10\n")}
	fu := map[string][]byte{"a.h": []byte("#define A_COUNT 5\n#define B_COUNT 11\nint x[] = {1, 3};\nkeep 7\nnew 12\n"), "b.h": []byte("n 0x11\n")}
	got := numberSteps(base, fu)
	want := map[int64]int{1: 3, 2: 1}
	if len(got) != len(want) || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("steps %v, want %v", got, want)
	}
}
