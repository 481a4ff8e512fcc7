// Package relationtest tests relations, as golang.org/x/tools/go/analysis/analysistest
// tests analyzers: Run runs a relation on test cases written as txtar
// archives, each an input, a spot, the follow-up expected there and,
// optionally, an output broken by hand with the checkers it must fail;
// CheckersCanFail checks that no checker of a relation is vacuous.
//
// An archive (NAME.txtar) reads:
//
//	# Lines of the comment that start with # are for people.
//	spots 5          the number of spots of the input (optional)
//	spot 2           the spot of the test case, numbered as mcpt spots numbers them
//	seed 7           the seed of the random choices, as mcpt spots --seed (default 1)
//	want io-header   a checker the broken output must fail, one line each
//	-- traffic.cll --
//	the input: the first file whose name is none of those below
//	-- follow-up --
//	the follow-up the relation must make at the spot (optional)
//	-- bindings --
//	N = Zqabcdef       bindings the follow-up must have (optional; others are not checked)
//	-- broken/traffic_light_io.h --
//	a file of o′, the output of the follow-up, broken by hand (optional)
//
// With a transpiler, Run transpiles the input and the follow-up and checks
// that the relation's checkers pass on the two outputs (no false alarm);
// then it replaces the files of o′ that the archive breaks and checks that
// exactly the checkers its want lines name fail.
package relationtest

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// The names of an archive's files that are not the input.
const (
	FollowUpFile = "follow-up"
	BindingsFile = "bindings"
	BrokenDir    = "broken/"
)

// Case is a test case of a relation, as an archive states it.
type Case struct {
	// File is the archive's path, for messages.
	File string
	// Input is the input the relation mutates.
	Input relation.Input
	// Spots is the number of spots the input must have; -1 leaves it
	// unchecked.
	Spots int
	// Spot is the index of the spot of the test case.
	Spot int
	// Seed is the seed of the random choices of the mutation.
	Seed uint64
	// FollowUp is the follow-up expected at the spot; nil leaves it
	// unchecked.
	FollowUp []byte
	// Bindings are bindings the follow-up must have.
	Bindings map[string]string
	// Broken are files of o′ broken by hand, by name.
	Broken tree.Tree
	// Want are the checkers that must fail on o′ with Broken in place.
	Want []string
}

// Rand is the source of the random choices of a mutation at spot with
// seed: the one mcpt spots --seed uses, so that what it shows is what an
// archive expects.
func Rand(seed uint64, spot relation.Spot) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(spot.Index)))
}

// ParseCase reads the archive in file.
func ParseCase(file string) (*Case, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	c := &Case{File: file, Spots: -1, Spot: -1, Seed: 1}
	if err := c.directives(a.Comment); err != nil {
		return nil, err
	}
	for _, f := range a.Files {
		switch {
		case f.Name == FollowUpFile:
			c.FollowUp = f.Data
		case f.Name == BindingsFile:
			if c.Bindings, err = bindings(file, f.Data); err != nil {
				return nil, err
			}
		case strings.HasPrefix(f.Name, BrokenDir):
			if c.Broken == nil {
				c.Broken = tree.Tree{}
			}
			c.Broken[strings.TrimPrefix(f.Name, BrokenDir)] = f.Data
		case c.Input.Name == "":
			c.Input = relation.Input{Name: f.Name, Src: f.Data}
		default:
			return nil, fmt.Errorf("%s: a second input %s (the input is %s)", file, f.Name, c.Input.Name)
		}
	}
	switch {
	case c.Input.Name == "":
		return nil, fmt.Errorf("%s: no input file", file)
	case c.Spot < 0:
		return nil, fmt.Errorf("%s: no spot: give one as spot N in the comment", file)
	case len(c.Broken) > 0 && len(c.Want) == 0:
		return nil, fmt.Errorf("%s: a broken output and no want line: which checkers must fail?", file)
	case len(c.Broken) == 0 && len(c.Want) > 0:
		return nil, fmt.Errorf("%s: want lines and no broken/ file to fail on", file)
	}
	return c, nil
}

// directives reads the comment of an archive.
func (c *Case) directives(comment []byte) error {
	return Directives(c.File, comment, func(key, val string) error {
		var err error
		switch key {
		case "spot":
			c.Spot, err = strconv.Atoi(val)
		case "spots":
			c.Spots, err = strconv.Atoi(val)
		case "seed":
			c.Seed, err = strconv.ParseUint(val, 10, 64)
		case "want":
			if val == "" {
				err = fmt.Errorf("want names a checker")
			}
			c.Want = append(c.Want, val)
		default:
			err = fmt.Errorf("unknown line %q (want spot, spots, seed or want)", strings.TrimSpace(key+" "+val))
		}
		return err
	})
}

// Directives calls do with the first word and the rest of each line of
// the comment of an archive that is neither blank nor starts with # (a
// line for people), and reports the first error do returns at
// file:line.
func Directives(file string, comment []byte, do func(key, val string) error) error {
	sc := bufio.NewScanner(strings.NewReader(string(comment)))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, val, _ := strings.Cut(text, " ")
		if err := do(key, strings.TrimSpace(val)); err != nil {
			return fmt.Errorf("%s:%d: %v", file, line, err)
		}
	}
	return nil
}

// bindings reads name = value lines.
func bindings(file string, data []byte) (map[string]string, error) {
	m := map[string]string{}
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("%s: bindings line %d: want name = value", file, i+1)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// Run runs relation r on the test case of every archive dir/*.txtar, each
// as a subtest named after its file, and reports on t every expectation
// of the archive that r does not meet. tr is the transpiler whose outputs
// the checkers judge, the correct one; with tr nil, only the spots,
// follow-ups and bindings are checked.
func Run(t *testing.T, dir string, r *relation.Relation, tr transpiler.Transpiler) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no test case of relation %s: no %s", r.Name, filepath.Join(dir, "*.txtar"))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			c, err := ParseCase(f)
			if err != nil {
				t.Fatal(err)
			}
			RunCase(t, c, r, tr)
		})
	}
}

// RunCase runs relation r on test case c (see Run).
func RunCase(t testing.TB, c *Case, r *relation.Relation, tr transpiler.Transpiler) {
	t.Helper()
	spots, err := r.Spots(t.Context(), c.Input)
	if err != nil {
		t.Fatalf("%s: spots of %s: %v", c.File, c.Input.Name, err)
	}
	if c.Spots >= 0 && len(spots) != c.Spots {
		t.Errorf("%s: %d spots on %s, want %d", c.File, len(spots), c.Input.Name, c.Spots)
	}
	if c.Spot >= len(spots) {
		t.Fatalf("%s: no spot %d: %s has %d", c.File, c.Spot, c.Input.Name, len(spots))
	}
	sp := spots[c.Spot]
	fu, err := r.Mutate(t.Context(), c.Input, sp, Rand(c.Seed, sp))
	if err != nil {
		t.Fatalf("%s: mutation at spot %d: %v", c.File, c.Spot, err)
	}
	if c.FollowUp != nil && string(fu.Src) != string(c.FollowUp) {
		t.Errorf("%s: the follow-up at spot %d (%s) is not the expected one; from the expected to the actual:\n%s",
			c.File, c.Spot, sp.Desc, oracle.DiffInputs(c.Input.Name, string(c.FollowUp), string(fu.Src)))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Bindings)) {
		if got, ok := fu.Bindings[k]; !ok || got != c.Bindings[k] {
			t.Errorf("%s: binding %s = %q, want %q", c.File, k, got, c.Bindings[k])
		}
	}
	if tr == nil {
		return
	}
	o, o2 := Transpile(t, tr, c.Input, fu)
	if fails := fu.Check(o, o2); len(fails) > 0 {
		t.Errorf("%s: false alarm at spot %d: %s", c.File, c.Spot, describe(fails))
	}
	if len(c.Broken) == 0 {
		return
	}
	broken := maps.Clone(o2)
	maps.Copy(broken, c.Broken)
	failed := checkers(fu.Check(o, broken))
	want := slices.Compact(slices.Sorted(slices.Values(c.Want)))
	if !slices.Equal(failed, want) {
		t.Errorf("%s: the broken output fails %v, want %v", c.File, failed, want)
	}
}

// Transpile runs tr on the input (a base run) and on the follow-up, and
// returns the two outputs; a run that is not accepted is fatal.
func Transpile(t testing.TB, tr transpiler.Transpiler, in relation.Input, fu *relation.FollowUp) (o, o2 tree.Tree) {
	t.Helper()
	run := func(src []byte, role transpiler.Role) tree.Tree {
		res, err := tr.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: src, Role: role})
		if err != nil {
			t.Fatalf("transpiling %s: %v", in.Name, err)
		}
		if res.Status != transpiler.Accepted {
			t.Fatalf("the transpiler does not accept %s (%v): %s", in.Name, res.Status, res.Stderr)
		}
		return res.Files
	}
	return run(in.Src, transpiler.Base), run(fu.Src, transpiler.FollowUp)
}

// checkers are the names of the checkers that failed, sorted, once each.
func checkers(fails []oracle.Failure) []string {
	var names []string
	for _, f := range fails {
		names = append(names, f.Checker)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func describe(fails []oracle.Failure) string {
	var b strings.Builder
	for _, f := range fails {
		fmt.Fprintf(&b, "\n%s: %s\n%s", f.Checker, f.Message, f.Diff)
	}
	return b.String()
}

// ReadInputs reads the files the glob patterns match as inputs, named by
// their base names.
func ReadInputs(t testing.TB, patterns ...string) []relation.Input {
	t.Helper()
	var ins []relation.Input
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no file matches %s", p)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, relation.Input{Name: filepath.Base(f), Src: src})
		}
	}
	return ins
}
