package gorel_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

func traffic(t *testing.T) relation.Input {
	t.Helper()
	src, err := os.ReadFile("../traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	return relation.Input{Name: "traffic.cll", Src: src}
}

func TestSpotsAndMutation(t *testing.T) {
	r := gorel.AddCommand()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	in := traffic(t)
	spots, err := r.Spots(in)
	if err != nil {
		t.Fatal(err)
	}
	// The traffic light has four declarations: five boundaries.
	if len(spots) != 5 {
		t.Fatalf("%d spots, want 5", len(spots))
	}
	fu, err := r.Mutate(in, spots[2], engine.CaseRand(7))
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	if !strings.HasPrefix(n, "Zq") || strings.Contains(string(in.Src), n) {
		t.Errorf("fresh name %q", n)
	}
	if fu.Bindings["prev.command"] != "DisableCamera" {
		t.Errorf("prev.command = %q, want DisableCamera", fu.Bindings["prev.command"])
	}
	want := "  command SpeakerOn, SpeakerOff\n"
	if !strings.Contains(string(fu.Src), "  command "+n+"\n"+want) {
		t.Errorf("follow-up does not insert before the second command line:\n%s", fu.Src)
	}
}

// TestChecksAgainstCllc runs the relation at every spot against the correct
// cllc (no failure), then against an output broken by hand (the new
// prototype moved to the end of its group: the difference check fails).
func TestChecksAgainstCllc(t *testing.T) {
	r := gorel.AddCommand()
	in := traffic(t)
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(src []byte) *transpiler.Result {
		res, err := tr.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: src})
		if err != nil || res.Status != transpiler.Accepted {
			t.Fatalf("cllc: %v %v %s", err, res.Status, res.Stderr)
		}
		return res
	}
	base := run(in.Src)
	spots, _ := r.Spots(in)
	for _, sp := range spots {
		fu, err := r.Mutate(in, sp, engine.CaseRand(uint64(sp.Index)))
		if err != nil {
			t.Fatal(err)
		}
		o2 := run(fu.Src).Files
		if fails := fu.Check(base.Files, o2); len(fails) > 0 {
			t.Errorf("spot %d (%s): false alarm: %s\n%s", sp.Index, sp.Desc, fails[0].Message, fails[0].Diff)
		}
		// Break o′: move the new prototype to the end of its group.
		io := string(o2["traffic_light_io.h"])
		line := "void traffic_light_cmd_" + relation.Snake(fu.Bindings["N"]) + "(void);\n"
		broken := strings.Replace(io, line, "", 1)
		broken = strings.Replace(broken, "\n#endif", line+"\n#endif", 1)
		if broken == io {
			continue // already last: moving it changes nothing
		}
		o2["traffic_light_io.h"] = []byte(broken)
		fails := fu.Check(base.Files, o2)
		if len(fails) != 1 || fails[0].Checker != "io-header" {
			t.Errorf("spot %d: broken output gave %d failures, want the io-header check to fail", sp.Index, len(fails))
		}
	}
}
