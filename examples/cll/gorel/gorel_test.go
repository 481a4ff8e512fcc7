package gorel_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestAddCommand runs the relation on the test cases of testdata/*.txtar
// against the correct cllc, and checks that each of its checkers can fail
// at every spot of the CLL examples.
func TestAddCommand(t *testing.T) {
	r := gorel.AddCommand()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	relationtest.Run(t, "testdata", r, tr)
	relationtest.CheckersCanFail(t, r, tr, relationtest.ReadInputs(t, "../*.cll")...)
}

// TestAddCommandLayout: the spots come from the syntax tree, so a program
// indented with tabs, with comments between its declarations, has the same
// spots as the original, and the command goes in with the tab.
func TestAddCommandLayout(t *testing.T) {
	r := gorel.AddCommand()
	src, err := os.ReadFile("../traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	alt := strings.ReplaceAll(string(src), "\n  command SpeakerOn", "\n  // the speaker\n  command SpeakerOn")
	alt = strings.ReplaceAll(alt, "\n  ", "\n\t")
	descs := func(src []byte) []string {
		ss, err := r.Spots(context.Background(), relation.Input{Name: "traffic.cll", Src: src})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.Desc)
		}
		return out
	}
	want, got := descs(src), descs([]byte(alt))
	if !slices.Equal(got, want) || len(want) != 5 {
		t.Fatalf("spots of the tab-indented program:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	in := relation.Input{Name: "traffic.cll", Src: []byte(alt)}
	ss, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, ss[2], rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if n := fu.Bindings["N"]; !strings.Contains(string(fu.Src), "DisableCamera\n\tcommand "+n+"\n\t// the speaker\n") {
		t.Errorf("follow-up at %s does not have the command on a line of its own, with a tab, before the comment:\n%s", ss[2].Desc, fu.Src)
	}
}
