package cllc_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// open makes the builtin cllc as a configuration naming it does.
func open(options map[string]string, faults []string) (transpiler.Transpiler, error) {
	return transpiler.Open(spec.Spec{Kind: spec.Builtin, Builtin: cllc.Name, Options: options, Faults: faults}, cllc.Builtins())
}

// traffic is the example of the CLL specification.
const traffic = `logic TrafficLight

declarations
  states Red, Green, Yellow
  command EnableCamera, DisableCamera
  command SpeakerOn, SpeakerOff
  configuration parameter CameraInstalled : Boolean

init
  transition to Red

cycle
  if CameraInstalled then
    if state = Red then send EnableCamera else send DisableCamera end
  end
  transition to next
  if state = Yellow then send SpeakerOn else send SpeakerOff end

configuration
  CameraInstalled = false
  cycle time 10 s
`

// typesH is the header holding the states enum (for the logic
// TrafficLight; file names derive from the logic name).
const typesH = "traffic_light_types.h"

func builtin(t *testing.T, options map[string]string, faults ...string) transpiler.Transpiler {
	t.Helper()
	tr, err := open(options, faults)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func run(t *testing.T, tr transpiler.Transpiler, role transpiler.Role, src string) *transpiler.Result {
	t.Helper()
	res, err := tr.Transpile(context.Background(), transpiler.Request{Name: "traffic.cll", Src: []byte(src), Role: role})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAccepted(t *testing.T) {
	res := run(t, builtin(t, nil), transpiler.Base, traffic)
	if res.Status != transpiler.Accepted {
		t.Fatalf("status %v, stderr %q", res.Status, res.Stderr)
	}
	want, err := cll.Transpile("traffic.cll", []byte(traffic))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 8 || len(res.Files) != len(want) {
		t.Errorf("files %v, want the eight of cll.Transpile", res.Files.Names())
	}
	for name, b := range want {
		if !bytes.Equal(res.Files[name], b) {
			t.Errorf("%s differs from what cll.Transpile gives", name)
		}
	}
}

func TestRejected(t *testing.T) {
	src := strings.Replace(traffic, "logic TrafficLight", "logic", 1)
	src = strings.Replace(src, "transition to next", "transition to Blue", 1)
	res := run(t, builtin(t, nil), transpiler.Base, src)
	if res.Status != transpiler.Rejected {
		t.Fatalf("status %v, stderr %q", res.Status, res.Stderr)
	}
	if !bytes.HasPrefix(res.Stderr, []byte("traffic.cll:")) || !bytes.HasSuffix(res.Stderr, []byte("\n")) {
		t.Errorf("stderr %q, want positioned lines", res.Stderr)
	}
	if res.Files != nil {
		t.Errorf("files %v on a rejection", res.Files.Names())
	}
}

func TestFaultsInWhichRuns(t *testing.T) {
	clean := run(t, builtin(t, nil), transpiler.Base, traffic).Files[typesH]
	faulty := builtin(t, nil, "reverse-enums")
	for _, role := range []transpiler.Role{transpiler.Base, transpiler.FollowUp} {
		if out := run(t, faulty, role, traffic).Files[typesH]; bytes.Equal(out, clean) {
			t.Errorf("a %s run lacks the fault", role)
		}
	}
	followOnly := builtin(t, map[string]string{"faults-in": "follow-up"}, "reverse-enums")
	if base := run(t, followOnly, transpiler.Base, traffic).Files[typesH]; !bytes.Equal(base, clean) {
		t.Errorf("faults-in=follow-up: a base run has the fault active")
	}
	if follow := run(t, followOnly, transpiler.FollowUp, traffic).Files[typesH]; bytes.Equal(follow, clean) {
		t.Errorf("faults-in=follow-up: a follow-up run lacks the fault")
	}
}

func TestConfigurationErrors(t *testing.T) {
	for _, tc := range []struct {
		options map[string]string
		faults  []string
		want    string
	}{
		{nil, []string{"reverse-enums", "no-such-fault"}, `unknown fault "no-such-fault" (known: `},
		{map[string]string{"colour": "red"}, nil, `unknown option "colour"`},
		{map[string]string{"faults-in": "base"}, nil, `faults-in="base"`},
	} {
		_, err := open(tc.options, tc.faults)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "cllc") {
			t.Errorf("Builtin(%v, %v): %v, want an error containing %q", tc.options, tc.faults, err, tc.want)
		}
	}
}

// The flags of a run switch faults on as the cllc command's --fault does,
// in the runs the configured faults are active in; the builtin refuses, at
// start, flags it does not take.
func TestFlags(t *testing.T) {
	clean := run(t, builtin(t, nil), transpiler.Base, traffic).Files[typesH]
	for _, timeout := range []time.Duration{0, time.Minute} {
		tr, err := transpiler.Open(spec.Spec{Kind: spec.Builtin, Builtin: cllc.Name, Options: map[string]string{"faults-in": "follow-up"}, Process: spec.Process{Timeout: timeout}}, cllc.Builtins())
		if err != nil {
			t.Fatal(err)
		}
		fc, ok := tr.(transpiler.FlagChecker)
		if !ok {
			t.Fatalf("timeout %v: cllc does not check flags", timeout)
		}
		for _, flags := range [][]string{{"--fault", "reverse-enums"}, {"--fault=reverse-enums"}} {
			if err := fc.CheckFlags(flags); err != nil {
				t.Errorf("%q: %v", flags, err)
			}
			for role, want := range map[transpiler.Role]bool{transpiler.Base: false, transpiler.FollowUp: true} {
				res, err := tr.Transpile(t.Context(), transpiler.Request{Name: "traffic.cll", Src: []byte(traffic), Role: role, Flags: flags})
				if err != nil || res.Status != transpiler.Accepted {
					t.Fatalf("%q: %v %v", flags, res, err)
				}
				if faulty := !bytes.Equal(res.Files[typesH], clean); faulty != want {
					t.Errorf("%q, %s run: fault active %v", flags, role, faulty)
				}
			}
		}
		for flags, want := range map[string]string{"--fault": "needs the name", "--fault=nope": `unknown fault "nope"`, "-O2": `unknown flag "-O2"`} {
			if err := fc.CheckFlags(strings.Fields(flags)); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", flags, err, want)
			}
		}
	}
}
