package bench

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/tree"
)

// failAll is a check whose checkers fail every test case.
type failAll struct{ name string }

func (f failAll) Checker(*yamlrel.Mutation) (relation.Checker, error) { return f, nil }
func (f failAll) CheckerName() string                                 { return f.name }
func (f failAll) Check(o, o2 tree.Tree) []oracle.Failure {
	return []oracle.Failure{{Checker: f.name, Message: "always"}}
}

// TestWithoutSemantic: the semantic kinds still compile their checks (a
// spec they reject is still an error) but their checkers pass everything
// and are counted; the other kinds are untouched, and the tools given are
// not changed.
func TestWithoutSemantic(t *testing.T) {
	var compiled int
	kind := func(name string) yamlrel.CheckerKind {
		return yamlrel.CheckerKind{Name: name, New: func(spec *yamlrel.Spec) (yamlrel.Check, error) {
			compiled++
			if spec == nil {
				return nil, errNoSpec
			}
			return failAll{name: name + "-check"}, nil
		}}
	}
	tools := &setup.Tools{CheckerKinds: []yamlrel.CheckerKind{kind("go-probe"), kind("my-kind"), kind("js-shape")}}
	var left atomic.Int64
	out := WithoutSemantic(tools, &left)
	spec := &yamlrel.Spec{}
	for i, k := range out.CheckerKinds {
		c, err := k.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		chk, err := c.Checker(nil)
		if err != nil {
			t.Fatal(err)
		}
		fails := chk.Check(tree.Tree{}, tree.Tree{})
		if semantic := k.Name != "my-kind"; semantic != (len(fails) == 0) {
			t.Errorf("%s: %d failures", k.Name, len(fails))
		}
		if n := c.(relation.Named).CheckerName(); n != k.Name+"-check" {
			t.Errorf("%s: checker named %q", k.Name, n)
		}
		if c, _ := tools.CheckerKinds[i].New(spec); len(mustChecker(t, c).Check(nil, nil)) == 0 {
			t.Errorf("%s: the tools given were changed", k.Name)
		}
	}
	if left.Load() != 2 || compiled != 6 {
		t.Errorf("%d checks left out, %d compiled; want 2 and 6", left.Load(), compiled)
	}
	if _, err := out.CheckerKinds[0].New(nil); err == nil {
		t.Error("a spec the kind rejects was accepted once left out")
	}
	if WithoutSemantic(nil, &left) != nil {
		t.Error("no tools gave some")
	}
}

var errNoSpec = errors.New("no spec")

func mustChecker(t *testing.T, c yamlrel.Check) relation.Checker {
	t.Helper()
	chk, err := c.Checker(nil)
	if err != nil {
		t.Fatal(err)
	}
	return chk
}

// TestSemanticKinds: every kind of semrel and protobuf-js, whose facts
// come from running the generated code, are the semantic kinds; the
// text kinds of protorel are not.
func TestSemanticKinds(t *testing.T) {
	want := []string{protorel.ProtoJS.Name}
	for _, k := range semrel.Kinds {
		want = append(want, k.Name)
	}
	for _, k := range want {
		if !slices.Contains(SemanticKinds, k) {
			t.Errorf("%s is not among the semantic kinds %v", k, SemanticKinds)
		}
	}
	for _, k := range protorel.Kinds {
		if k.Name != protorel.ProtoJS.Name && slices.Contains(SemanticKinds, k.Name) {
			t.Errorf("%s, a text check, is among the semantic kinds", k.Name)
		}
	}
	if len(SemanticKinds) != len(want) {
		t.Errorf("semantic kinds %v, want %v", SemanticKinds, want)
	}
}
