package yamlrel

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

const derivedRel = `include: [defs.yaml]
relations:
  - name: add-timer
    doc: Add a timer.
    spots: {boundaries: decls}
    fresh: [N]
    insert: '  timer {{.N}}'
    checks:
      - locality: {numbers: 2, punctuation: any}
      - order: {}
      - analogy: {}
`

// derivedProgram has timers Hold (used in the cycle) and Alarm, Bell
// (declared only).
const derivedProgram = `logic Door
declarations
  states Open
  timer Hold
  timer Alarm
  timer Bell
init
cycle
  start Hold
`

// TestDerivedChecks: the derived checks take the fresh names, the
// neighbours of the inserted timer's kind and a sibling of the same shape
// that the input mentions only in its declaration from the mutation.
func TestDerivedChecks(t *testing.T) {
	rels := loadFiles(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": derivedRel})
	in := relation.Input{Name: "door.cll", Src: []byte(derivedProgram)}
	spots, _ := rels[0].Spots(context.Background(), in)
	// Spot 2 is after Hold: neighbours Hold and Alarm; the nearest sibling
	// mentioned once is Alarm (Hold is started in the cycle).
	fu, err := rels[0].Mutate(context.Background(), in, spots[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	loc := fu.Checks[0].(*oracle.Locality)
	if len(loc.Fresh) != 1 || loc.Fresh[0].Forms[0] != n || loc.Numbers != 2 || loc.Punctuation != oracle.Any {
		t.Errorf("locality %+v", loc)
	}
	ord := fu.Checks[1].(*oracle.Order)
	if ord.New.String() != n || ord.Prev.String() != "Hold" || ord.Next.String() != "Alarm" {
		t.Errorf("order: new %s between %s and %s", ord.New, ord.Prev, ord.Next)
	}
	if strings.Join(ord.New.Forms, " ") != strings.Join([]string{n, relation.Snake(n), relation.Upper(n), strings.ToLower(n), strings.ToUpper(n), strings.ToLower(n[:1]) + n[1:], n, relation.Snake(n)}, " ") {
		t.Errorf("forms %q", ord.New.Forms)
	}
	an := fu.Checks[2].(*oracle.Analogy)
	if len(an.Renames) != 1 || an.Renames[0].From.String() != "Alarm" || an.Renames[0].To.String() != n {
		t.Errorf("analogy %+v", an.Renames)
	}
	// At the start, with no timer above: no previous neighbour.
	fu, _ = rels[0].Mutate(context.Background(), in, spots[0], rngFor(1))
	if ord := fu.Checks[1].(*oracle.Order); !ord.Prev.Empty() || ord.Next.String() != "Hold" {
		t.Errorf("start: %s between %s and %s", ord.New, ord.Prev, ord.Next)
	}
}

// TestOrderUnique: with unique, a neighbour the input mentions elsewhere
// (Hold, started in the cycle) is no neighbour.
func TestOrderUnique(t *testing.T) {
	rel := strings.Replace(derivedRel, "- order: {}", "- order: {unique: true, not_places: 'x', places: '.'}", 1)
	rels := loadFiles(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": rel})
	in := relation.Input{Name: "door.cll", Src: []byte(derivedProgram)}
	spots, _ := rels[0].Spots(context.Background(), in)
	fu, err := rels[0].Mutate(context.Background(), in, spots[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	ord := fu.Checks[1].(*oracle.Order)
	if !ord.Prev.Empty() || ord.Next.String() != "Alarm" || ord.Places == nil || ord.NotPlaces == nil {
		t.Errorf("unique: %s between %q and %s, places %v, not %v", ord.New, ord.Prev, ord.Next, ord.Places, ord.NotPlaces)
	}
}

func TestDerivedErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"locality: {numbers: 2, punctuation: any}", "locality: {numbers: many}", "rel.yaml:9:29: want a number of lines or any"},
		{"order: {}", "order: {forms: [snake, shouty]}", `unknown name form "shouty"`},
		{"order: {}", "order: {before: '{{.prev.timer}}'}", "give both before and after"},
		{"analogy: {}", "analogy: {sibling: '{{.x'}", "bad template"},
		{"analogy: {}", "analogy: {}\n        difference: {file: x}", "a check names one checker kind: analogy or difference, not both"},
	} {
		dir := write(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": strings.Replace(derivedRel, tc.from, tc.to, 1)})
		_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.to, err, tc.want)
		}
	}
}

// TestAnalogyNumberedSibling: in a numbered IDL every field carries its
// own number, which the shape masks as the compared lines are: the new
// field `string N = 6;` has the sibling `string email = 5;`, and an
// enumerator `N = -1;` one of `B = 2;`.
func TestAnalogyNumberedSibling(t *testing.T) {
	defs := `regions:
  body: {from: '^message', to: '^}'}
kinds:
  field: {region: body, match: '^\s*(?P<type>\w+) (?P<name>\w+) = -?\d+;'}
`
	rel := `include: [defs.yaml]
relations:
  - name: add-field
    doc: Add a field.
    spots: {boundaries: body}
    fresh: [N]
    insert: '  string {{.N}} = -1;'
    checks:
      - analogy: {}
`
	rels := loadFiles(t, map[string]string{"defs.yaml": defs, "rel.yaml": rel})
	in := relation.Input{Name: "m.proto", Src: []byte("message M {\n  int32 id = 1;\n  string email = 5;\n}\n")}
	spots, _ := rels[0].Spots(context.Background(), in)
	fu, err := rels[0].Mutate(context.Background(), in, spots[len(spots)-1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	an := fu.Checks[0].(*oracle.Analogy)
	if len(an.Renames) != 1 || an.Renames[0].From.String() != "email" {
		t.Errorf("analogy sibling %+v, want email", an.Renames)
	}
	// The first field is no sibling of a field that is not first (a
	// generator writes the first of a list otherwise): with phone used
	// elsewhere, a field after it has none.
	in = relation.Input{Name: "m.proto", Src: []byte("message M {\n  string email = 1;\n  string phone = 2;\n}\n// phone\n")}
	spots, _ = rels[0].Spots(context.Background(), in)
	fu, err = rels[0].Mutate(context.Background(), in, spots[len(spots)-1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if an := fu.Checks[0].(*oracle.Analogy); len(an.Renames) != 0 {
		t.Errorf("last field: sibling %s, want none (email is the first)", an.Renames[0].From)
	}
	fu, _ = rels[0].Mutate(context.Background(), in, spots[0], rngFor(1))
	if an := fu.Checks[0].(*oracle.Analogy); len(an.Renames) != 1 || an.Renames[0].From.String() != "email" {
		t.Errorf("first field: sibling %+v, want email", an.Renames)
	}
}

// TestLocalityPerFile: two locality checks split by files and except give
// a .c file's sorted tables any renumbering and the header none; a line
// that may only grow passes when it gains words and fails when it loses
// one.
func TestLocalityPerFile(t *testing.T) {
	rel := strings.Replace(derivedRel, "      - locality: {numbers: 2, punctuation: any}\n      - order: {}\n      - analogy: {}\n",
		"      - locality: {except: ['*.c']}\n      - locality: {files: ['*.c'], numbers: any, grows: ['^int order\\[\\]']}\n", 1)
	rels := loadFiles(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": rel})
	in := relation.Input{Name: "door.cll", Src: []byte(derivedProgram)}
	spots, _ := rels[0].Spots(context.Background(), in)
	fu, err := rels[0].Mutate(context.Background(), in, spots[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	n := relation.Snake(fu.Bindings["N"])
	o := tree.Tree{"door.h": []byte("#define T_HOLD 0\n#define T_ALARM 1\n"), "door.c": []byte("int t_hold = 0;\nint t_alarm = 1;\nint order[] = { 0, 1 };\n")}
	good := tree.Tree{
		"door.h": []byte("#define T_HOLD 0\n#define T_" + strings.ToUpper(n) + " 2\n#define T_ALARM 1\n"),
		"door.c": []byte("int t_hold = 0;\nint t_" + n + " = 1;\nint t_alarm = 2;\nint order[] = { 0, 1, 2 };\n"),
	}
	check := func(o2 tree.Tree) []oracle.Failure { return fu.Check(o, o2) }
	if f := check(good); len(f) != 0 {
		t.Fatalf("false alarm: %+v", f)
	}
	bad := maps.Clone(good)
	bad["door.h"] = []byte("#define T_HOLD 0\n#define T_" + strings.ToUpper(n) + " 1\n#define T_ALARM 2\n")
	if f := check(bad); len(f) != 1 || f[0].File != "door.h" {
		t.Errorf("header renumbered: want a failure of door.h, got %+v", f)
	}
	bad = maps.Clone(good)
	bad["door.c"] = []byte("int t_hold = 0;\nint t_" + n + " = 1;\nint t_alarm = 2;\nint order[] = { 0, 2 };\n")
	if f := check(bad); len(f) != 1 || f[0].File != "door.c" {
		t.Errorf("an entry dropped from order[]: want a failure of door.c, got %+v", f)
	}
}

func TestShapeOfNumbers(t *testing.T) {
	for _, tc := range []struct{ a, na, b, nb string }{
		{"  string email = 5;", "email", "  string n = 6;", "n"},
		{"  B = 2,", "B", "  N = -1,", "N"},
		{"  timer T 10 s", "T", "  timer N 2 s", "N"},
		{"  x = (-2147483647 - 1)", "x", "  y = (-5 - 1)", "y"},
	} {
		if sa, sb := shapeOf(tc.a, []string{tc.na}, false), shapeOf(tc.b, []string{tc.nb}, false); sa != sb {
			t.Errorf("%q and %q: shapes %q and %q", tc.a, tc.b, sa, sb)
		}
	}
	if a, b := shapeOf("int32 n = 1;", []string{"n"}, false), shapeOf("int64 n = 1;", []string{"n"}, false); a == b {
		t.Errorf("int32 and int64: the same shape %q", a)
	}
	if a, b := shapeOf("x = n - 1", []string{"x"}, false), shapeOf("x = n 1", []string{"x"}, false); a == b {
		t.Errorf("a subtraction lost its operator: %q", a)
	}
	if a, b := shapeOf("B = 2,", []string{"B"}, true), shapeOf("N = 3,", []string{"N"}, true); a == b {
		t.Errorf("keep_numbers: numbers masked in %q", a)
	}
}

// TestDerivedGeneric: a declaration named by a word of the generator's
// (signature.generic) is no sibling and no neighbour: its lines cannot be
// told from the generator's.
func TestDerivedGeneric(t *testing.T) {
	dir := write(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": derivedRel})
	prog := strings.Replace(derivedProgram, "timer Alarm", "timer Name", 1)
	in := relation.Input{Name: "door.cll", Src: []byte(prog)}
	for _, generic := range [][]string{nil, {"name"}} {
		rels, err := LoadWith(Options{Generic: generic}, os.DirFS(dir), "rel.yaml")
		if err != nil {
			t.Fatal(err)
		}
		spots, _ := rels[0].Spots(context.Background(), in)
		fu, err := rels[0].Mutate(context.Background(), in, spots[2], rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		ord, an := fu.Checks[1].(*oracle.Order), fu.Checks[2].(*oracle.Analogy)
		sib := ""
		if len(an.Renames) > 0 {
			sib = an.Renames[0].From.String()
		}
		want, wantNext := "Name", "Name"
		if generic != nil {
			want, wantNext = "Bell", ""
		}
		if sib != want || ord.Next.String() != wantNext {
			t.Errorf("generic %v: sibling %q, next %q; want %q, %q", generic, sib, ord.Next, want, wantNext)
		}
	}
}
