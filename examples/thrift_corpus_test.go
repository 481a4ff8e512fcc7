package examples_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// TestThriftCorpusCases runs the Thrift packs on corpus files that once
// gave false alarms: constants built through numbered temporaries
// (tmp627, renumbered by a struct added before them), and a service that
// another extends (whose Python remote tool lists the base's methods too:
// the exact add-service-method leaves it out; the derived one allows
// those lines), and structs that are the type of a reference field
// (RecList & nextitem: the reader of nextitem lists RecList's __isset
// bits; the exact add-field leaves them out), structs whose fields have no
// ids (TupleProtocolTestStruct: thrift numbers them -1, -2, …; the exact
// add-field and add-string-field leave them out, the derived ones are
// tried at every spot), a struct that holds itself (NameConflictTest's
// Nested: its copies are noexcept, as thrift follows struct fields at any
// depth, and a service uses it, so neither add-string-field has a spot in
// it; every spot of that file is tried), and constants whose C++
// initialisation starts with temporaries (ConstantsDemo's GEN_MAPMAP after
// GEN_LIST: every spot of add-constant is tried), a struct that holds a
// union (whose fields decide its noexcept: add-string-field leaves it
// out), an enumerator referenced with another enum's name (EnumTest's
// `MyEnum2 me2_2 = MyEnum1.ME2_2`: no gap before ME2_2), an enum at the end
// of i32 (MyEnum4, whose new or shifted values would overflow), empty structs
// (whose C++ reader turns into a switch: no spot), and names the
// generators write of their own (an enumerator UNKNOWN beside "unknown
// result", a struct called using beside C++'s `using`, a field b beside
// C++'s `swap(a.f, b.f)`: no sibling and no neighbour of the derived
// checks), and structs with a list default (OneOfEach's i16_list = [1,2,3]:
// Python writes __init__'s signature over several lines; the exact
// add-field and add-string-field leave them out).
func TestThriftCorpusCases(t *testing.T) {
	p := packNamed(t, "thrift")
	needCompiler(t, p)
	corpus := filepath.Join("..", "testdata", "corpus", "thrift")
	seeds := []string{filepath.Join(corpus, "ConstantsDemo.thrift"), filepath.Join(corpus, "DebugProtoTest.thrift")}
	for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
		t.Run(cfg, func(t *testing.T) {
			s, err := setup.Load(filepath.Join(p.dir, cfg), setup.Options{SeedFiles: seeds, Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			if cfg == "mcpt.yaml" {
				noSpots(t, s, "add-service-method", seeds[1], "a service that another extends", "of Srv,")
				noSpots(t, s, "add-field", filepath.Join(corpus, "Recursive.thrift"), "a struct that a reference field holds", "of RecList,", "of CoRec2,")
				noSpots(t, s, "add-field", seeds[1], "a struct with fields without ids", "of TupleProtocolTestStruct,")
				noSpots(t, s, "add-string-field", seeds[1], "a struct with fields without ids", "of TupleProtocolTestStruct,")
				for _, name := range []string{"add-field", "add-string-field"} {
					noSpots(t, s, name, seeds[1], "a struct with list defaults (Python's __init__ over several lines)", "of OneOfEach,")
				}
			}
			noSpots(t, s, "add-string-field", filepath.Join(corpus, "NameConflictTest.thrift"), "Nested, whose copies are noexcept and which a service uses", "of Nested,")
			noSpots(t, s, "add-string-field", seeds[1], "a struct that holds a union", "of StructWithAUnion,")
			for _, name := range []string{"add-enum-value", "add-enum-value-explicit"} {
				noSpots(t, s, name, filepath.Join(corpus, "EnumTest.thrift"), "a gap that shifts ME2_2, the default MyEnum1.ME2_2", "of MyEnum2, before", "of MyEnum2, between")
				noSpots(t, s, name, filepath.Join(corpus, "EnumTest.thrift"), "an enum at the end of i32", "of MyEnum4,")
			}
			for _, name := range []string{"add-field", "add-string-field"} {
				noSpots(t, s, name, filepath.Join(corpus, "DocTest.thrift"), "an empty struct", "of EmptyStruct,")
			}
			if cfg == "derived.yaml" {
				spotCases(t, s, filepath.Join(corpus, "TCLIService.thrift"), []string{"add-enum-value"}, "of TOperationType,")
				spotCases(t, s, filepath.Join(corpus, "NameConflictTest.thrift"), []string{"add-struct"}, "before using")
				spotCases(t, s, filepath.Join(corpus, "DenseLinkingTest.thrift"), []string{"add-field"}, "of RandomStuffZZ, between b and c")
			}
			spotCases(t, s, filepath.Join(corpus, "NameConflictTest.thrift"), []string{"add-string-field"}, "")
			spotCases(t, s, seeds[0], []string{"add-constant"}, "")
			if cfg == "derived.yaml" {
				spotCases(t, s, seeds[1], []string{"add-field", "add-string-field"}, "of TupleProtocolTestStruct,")
			}
			rep := campaign(t, s, s.Transpiler, []string{"add-struct", "add-constant", "add-service-method"}, 30)
			if rep.TestCases < 30 {
				t.Fatalf("%d test cases, want 30", rep.TestCases)
			}
			if len(rep.Findings) > 0 {
				t.Errorf("%d false alarms in %d test cases:\n%s", len(rep.Findings), rep.TestCases, describe(rep, 3))
			}
			t.Logf("%d test cases, %d transpiler runs, no finding", rep.TestCases, rep.TranspilerRuns)
		})
	}
}

// noSpots reports the spots of relation name on seed whose description
// holds one of within: there must be none, for the reason why.
func noSpots(t *testing.T, s *setup.Setup, name, seed, why string, within ...string) {
	t.Helper()
	for _, r := range s.Relations {
		if r.Name != name {
			continue
		}
		ss, err := r.Spots(context.Background(), relation.Input{Name: filepath.Base(seed), Src: readFile(t, seed)})
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range ss {
			for _, w := range within {
				if strings.Contains(sp.Desc, w) {
					t.Errorf("%s: a spot in %s: %s", name, why, sp.Desc)
				}
			}
		}
	}
}

// spotCases runs the relations named on every spot of seed whose
// description holds within (every spot when within is ""), with two draws
// each, against the pack's compiler, and reports every check that fails:
// each is a false alarm.
func spotCases(t *testing.T, s *setup.Setup, seed string, names []string, within string) {
	t.Helper()
	ctx := context.Background()
	in := relation.Input{Name: filepath.Base(seed), Src: readFile(t, seed)}
	base, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base})
	if err != nil || base.Status != transpiler.Accepted {
		t.Fatalf("%s: %v %s", in.Name, err, base.Stderr)
	}
	o := s.Normalize.Apply(base.Files)
	n := 0
	for _, r := range s.Relations {
		if !slices.Contains(names, r.Name) {
			continue
		}
		spots, err := r.Spots(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range spots {
			if !strings.Contains(sp.Desc, within) {
				continue
			}
			for draw := range uint64(2) {
				fu, err := r.Mutate(ctx, in, sp, rand.New(rand.NewPCG(uint64(sp.Index), draw)))
				if err != nil {
					t.Fatal(err)
				}
				res, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp})
				if err != nil || res.Status != transpiler.Accepted {
					t.Errorf("%s on %s (%s): the follow-up is rejected: %v %s", r.Name, in.Name, sp.Desc, err, res.Stderr)
					continue
				}
				n++
				for _, f := range fu.Check(o, s.Normalize.Apply(res.Files)) {
					t.Errorf("%s on %s (%s): %s %s\n%s", r.Name, in.Name, sp.Desc, f.Checker, f.Message, f.Diff)
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("no test case of %v on %s (%q)", names, in.Name, within)
	}
}
