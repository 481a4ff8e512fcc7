package faultinject

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// update says to rewrite the golden files instead of comparing with them:
// UPDATE_GOLDEN=1, the module's one switch for golden files.
func update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// TestInstrumentGolden compares the instrumented lib.go of the sample with
// testdata/sample.lib.go.golden; UPDATE_GOLDEN=1 rewrites it.
func TestInstrumentGolden(t *testing.T) {
	fx := getSample(t)
	got, err := os.ReadFile(filepath.Join(fx.out, "lib", "lib.go"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.lib.go.golden")
	if update() {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("instrumented lib.go differs from %s (run with UPDATE_GOLDEN=1 to accept):\n%s", golden, got)
	}
}

// TestInstrumentKeepsLinesAndComments checks, for every Go file of the
// sample, that the instrumented copy has the same number of lines and the
// same comments on the same lines, and that the lines without a branch
// site are unchanged.
func TestInstrumentKeepsLinesAndComments(t *testing.T) {
	fx := getSample(t)
	siteLines := map[string]bool{}
	for _, s := range fx.m.Sites {
		siteLines[s.File+":"+strconv.Itoa(s.Line)] = true
	}
	for _, file := range []string{"cmd/sample/main.go", "lib/lib.go"} {
		orig, err := os.ReadFile(filepath.Join(fx.src, file))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := os.ReadFile(filepath.Join(fx.out, file))
		if err != nil {
			t.Fatal(err)
		}
		ol, il := strings.Split(string(orig), "\n"), strings.Split(string(inst), "\n")
		if len(ol) != len(il) {
			t.Errorf("%s: %d lines, instrumented %d", file, len(ol), len(il))
			continue
		}
		if a, b := comments(t, file, orig), comments(t, file, inst); !slices.Equal(a, b) {
			t.Errorf("%s: comments differ:\n%q\n%q", file, a, b)
		}
		for i := range ol {
			key := file + ":" + strconv.Itoa(i+1)
			// Continuation lines of a multi-line site and switch headers
			// change too.
			if ol[i] != il[i] && !siteLines[key] && !strings.Contains(ol[i], "switch") && !strings.HasPrefix(strings.TrimSpace(il[i]), "mcptfault") {
				t.Errorf("%s: a line without a site changed:\n%s\n%s", key, ol[i], il[i])
			}
		}
	}
	// The forwarder and the runtime are added; nothing else is.
	for _, p := range []string{"lib/" + ForwarderFile, "cmd/sample/" + ForwarderFile, RuntimeDir + "/mcptfault.go"} {
		if _, err := os.Stat(filepath.Join(fx.out, p)); err != nil {
			t.Error(err)
		}
	}
}

// comments lists the comments of a Go file as "line:text".
func comments(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var cs []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			cs = append(cs, fmt.Sprintf("%d:%s", fset.Position(c.Pos()).Line, c.Text))
		}
	}
	return cs
}

// TestManifestSites checks the sites of the sample against the labels of
// its lines, and that each site's position is where its expression starts
// in the original source.
func TestManifestSites(t *testing.T) {
	fx := getSample(t)
	labels := fx.labels(t)
	want := map[string]int{
		"main-err if": 1, "main-args if": 1, "main-read if": 1, "main-atoi if": 1,
		"var-and and-operand": 2,
		"sign-pos if":         1, "sign-neg else-if": 1,
		"kind-neg case": 1, "kind-even case": 1, "kind-one case": 1,
		"size-big case": 1, "size-medium case": 1,
		"digits-loop for": 1, "digits-loop or-operand": 1, "digits-neg or-operand": 1,
		"odd-and if": 1, "odd-and and-operand": 2, "odd-and or-operand": 2,
		"flag if":   1,
		"broken if": 1, "broken or-operand": 2,
		"sign-zero case": 1,
		"one-line for":   1, "one-line if": 1,
	}
	got := map[string]int{}
	for i, s := range fx.m.Sites {
		if s.ID != i || s.Faults[0] != (Fault{FaultID(i, true), i, true}) || s.Faults[1] != (Fault{FaultID(i, false), i, false}) {
			t.Errorf("site %d: inconsistent ids %+v", i, s)
		}
		got[labels[s.File+":"+strconv.Itoa(s.Line)]+" "+string(s.Construct)]++
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d sites, want %d", k, got[k], n)
		}
	}
	for k, n := range got {
		if want[k] == 0 {
			t.Errorf("unexpected sites %s (%d)", k, n)
		}
	}

	// Each position is the start of an expression whose text begins the
	// site's Expr.
	starts := map[string][]string{}
	for _, file := range []string{"cmd/sample/main.go", "lib/lib.go"} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(fx.src, file), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				p := fset.Position(e.Pos())
				key := fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
				starts[key] = append(starts[key], types.ExprString(e))
			}
			return true
		})
	}
	for _, s := range fx.m.Sites {
		if s.Pos != fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col) {
			t.Errorf("site %d: pos %s disagrees with %s:%d:%d", s.ID, s.Pos, s.File, s.Line, s.Col)
		}
		ok := false
		for _, e := range starts[s.Pos] {
			ok = ok || e == s.Expr || strings.HasPrefix(s.Expr, e+", ")
		}
		if !ok {
			t.Errorf("site %d (%s %q): the expressions at %s are %q", s.ID, s.Construct, s.Expr, s.Pos, starts[s.Pos])
		}
	}

	// The skipped constructs: the type switch, the switch with an init
	// statement and an impure tag, and the && of the named type Flag.
	var skipped []string
	for _, s := range fx.m.Skipped {
		skipped = append(skipped, labelOf(s.Pos)+" "+string(s.Construct))
	}
	slices.Sort(skipped)
	wantSkipped := []string{"lib/lib.go and-operand", "lib/lib.go case", "lib/lib.go type-switch"}
	if !slices.Equal(skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", skipped, wantSkipped)
	}

	// The manifest on disk is the one returned.
	m, err := ReadManifest(filepath.Join(fx.out, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Sites) != len(fx.m.Sites) || m.Binary != fx.m.Binary || m.Module != "example.com/sample" {
		t.Errorf("manifest read back differs: %d sites, binary %q, module %q", len(m.Sites), m.Binary, m.Module)
	}
}

func labelOf(pos string) string { return pos[:strings.IndexByte(pos, ':')] }

// TestInstrumentedCleanRun checks that the instrumented sample without an
// active fault behaves as the original, in every configuration that
// activates no fault.
func TestInstrumentedCleanRun(t *testing.T) {
	fx := getSample(t)
	ledger, err := OpenLedger(filepath.Join(t.TempDir(), "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{"5", "-3 0 123", "4 7 14 1001 -1001 99 100 101 3 2", "x", ""}
	envs := [][]string{
		nil,
		{EnvRole + "=follow-up"}, // no ledger
		append([]string{EnvRole + "=base"}, ledger.Env("b1")...), // base runs never activate
		{EnvRole + "=follow-up", EnvLedger + "="},
	}
	for _, in := range inputs {
		want := runBin(t, fx.orig, in)
		for _, env := range envs {
			got := runBin(t, fx.m.Binary, in, env...)
			if got != want {
				t.Errorf("input %q, env %q: got %+v, want %+v", in, env, got, want)
			}
		}
	}
	if as, err := ledger.Activations(); err != nil || len(as) != 0 {
		t.Errorf("base runs activated %v (%v)", as, err)
	}
}

// TestForcedFaults forces single faults of the sample and checks their
// effect on its output.
func TestForcedFaults(t *testing.T) {
	fx := getSample(t)
	type forced struct {
		label string
		c     Construct
		n     int
		force bool
		input string
		want  string // out.txt, or "exit N" for a failing run
	}
	tests := []forced{
		{"sign-pos", IfCond, 0, true, "5", "positive one small odd-small #\n"}, // the branch's own value
		{"sign-pos", IfCond, 0, false, "5", "zero one small odd-small nothing #\n"},
		{"sign-neg", ElseIfCond, 0, true, "0", "negative even small #\n"},
		{"sign-neg", ElseIfCond, 0, false, "-4", "zero even small nothing #\n"},
		{"kind-neg", CaseClause, 0, true, "5", "positive impossible small odd-small #\n"},
		{"kind-even", CaseClause, 0, true, "5", "positive even small odd-small #\n"},
		{"kind-even", CaseClause, 0, false, "6", "positive three small #\n"},
		{"kind-one", CaseClause, 0, false, "5", "positive three small odd-small #\n"},
		{"size-big", CaseClause, 0, true, "5", "positive one big odd-small #\n"},
		{"size-medium", CaseClause, 0, true, "5", "positive one medium odd-small #\n"},
		{"size-medium", CaseClause, 0, false, "-20", "negative even small ##\n"},
		{"digits-loop", ForCond, 0, false, "123", "positive three medium #\n"},
		{"digits-loop", OrOperand, 0, false, "123", "positive three medium #\n"},
		{"digits-neg", OrOperand, 0, false, "-123", "negative three medium #\n"},
		{"odd-and", IfCond, 0, true, "4", "positive even small odd-small #\n"},
		{"odd-and", AndOperand, 0, true, "4", "positive even small odd-small #\n"},
		{"odd-and", AndOperand, 1, false, "5", "positive one small #\n"},
		{"odd-and", OrOperand, 0, false, "123", "positive three medium odd-small ###\n"},
		{"odd-and", OrOperand, 1, true, "5", "positive one small #\n"},
		{"var-and", AndOperand, 0, false, "5", "positive one small odd-small broken #\n"},
		{"broken", OrOperand, 1, true, "5", "positive one small odd-small broken #\n"},
		{"flag", IfCond, 0, true, "5", "positive one small odd-small flagged #\n"},
		{"sign-zero", CaseClause, 0, true, "5", "positive one small odd-small nothing #\n"},
		{"one-line", IfCond, 0, true, "5", "- - - - -\n"},
		{"main-args", IfCond, 0, true, "5", "exit 1"},
		{"main-atoi", IfCond, 0, true, "5", ""}, // returns the nil error: nothing written
		{"main-err", IfCond, 0, false, "x", ""}, // the error is lost, nothing written
	}
	for _, tt := range tests {
		s := fx.site(t, tt.label, tt.c, tt.n)
		id := FaultID(s.ID, tt.force)
		t.Run(fmt.Sprintf("%s-%s-%d-%t", tt.label, tt.c, tt.n, tt.force), func(t *testing.T) {
			r := runBin(t, fx.m.Binary, tt.input, EnvForce+"="+strconv.Itoa(id))
			got := r.out
			if r.code != 0 {
				got = "exit " + strconv.Itoa(r.code)
			}
			if got != tt.want {
				t.Errorf("fault %d (%s %q forced %t) on %q: got %q, want %q", id, s.Construct, s.Expr, tt.force, tt.input, got, tt.want)
			}
			// The force applies in every role, and the ledger is ignored.
			ledger, err := OpenLedger(filepath.Join(t.TempDir(), "ledger"))
			if err != nil {
				t.Fatal(err)
			}
			env := append([]string{EnvRole + "=base"}, ledger.Env("r")...)
			env = append(env, EnvForce+"="+strconv.Itoa(id))
			if r2 := runBin(t, fx.m.Binary, tt.input, env...); r2 != r {
				t.Errorf("forced in a base run with a ledger: %+v, want %+v", r2, r)
			}
			if ex, _ := ledger.Executed(); len(ex) != 0 {
				t.Errorf("a forced run recorded %v in the ledger", ex)
			}
		})
	}
}

// TestInstrumentTricky instruments constructs whose rewriting could break
// compilation or change behaviour, and checks that the program still
// builds and prints the same.
func TestInstrumentTricky(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	extract(t, "tricky.txtar", src)
	orig := filepath.Join(dir, "orig")
	build := exec.Command("go", "build", "-o", orig, ".")
	build.Dir = src
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the original does not build: %v\n%s", err, b)
	}
	m, err := Instrument(context.Background(), Options{ModuleDir: src, OutDir: filepath.Join(dir, "out"), Main: "."})
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(orig).CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(m.Binary)
	cmd.Env = cleanEnv()
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("instrumented output:\n%s\nwant:\n%s", got, want)
	}
	var skipped []string
	for _, s := range m.Skipped {
		skipped = append(skipped, s.Pos+" "+string(s.Construct))
	}
	t.Logf("%d sites %v; skipped %q", len(m.Sites), m.Count(), skipped)
	if len(m.Skipped) != 4 { // the two operand pairs of truth, and the && and || of classify's Flags
		t.Errorf("skipped %q", skipped)
	}
}
