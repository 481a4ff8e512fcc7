package examples_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// holdouts are the faults of our own making, one per pack, that
// TestHoldoutFaults puts into each pack's compiler: Thrift's write() in
// declaration order, FlatBuffers' EnumValuesE() sorted by name, tsc's
// declaration files listing enum members by value, cllc's timer resets
// sorted by name. (FlatBuffers' shipped fault, the names tables without
// their fillers, is caught by the exact relations only: a filler is a
// value no sibling enumerator has, so analogy has nothing to copy and
// locality and order see a line of the new enumerator where it belongs.)
var holdouts = []struct {
	pack, fault string
}{
	{"thrift", "-fault=field-order"},
	{"flatbuffers", "-fault=values-by-name"},
	{"typescript", "--sort-enum-members"},
	{"cll", "sorted-resets"},
}

// holdoutCases is the size of each campaign of TestHoldoutFaults.
const holdoutCases = 120

// TestHoldoutFaults (long and tools tiers) is the check a user makes
// before trusting a pack: a fault of their own making in the compiler,
// each pack's whole exact catalogue (mcpt.yaml, for CLL generated.yaml)
// and its whole derived catalogue (derived.yaml) run against it on the
// pack's seeds, and each finds it with an oracle finding.
func TestHoldoutFaults(t *testing.T) {
	testtier.Long(t, "eight campaigns against faulty compilers")
	var table strings.Builder
	table.WriteString("| pack | fault | relations | test cases | with oracle findings | rejected follow-ups | caught by |\n|---|---|---|---|---|---|---|\n")
	for _, h := range holdouts {
		exact := "mcpt.yaml"
		if h.pack == "cll" {
			exact = "generated.yaml"
		}
		for _, cfg := range []string{exact, "derived.yaml"} {
			t.Run(h.pack+"/"+cfg, func(t *testing.T) {
				var rep *result.Report
				switch h.pack {
				case "cll":
					rep = runCLL(t, cfg, []string{h.fault}, holdoutCases)
				case "typescript":
					needTsc(t)
					// the derived relations check some constructs at run time
					s, err := setup.Load(filepath.Join(tsDir, cfg), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
					if err != nil {
						t.Fatal(err)
					}
					rep = campaign(t, s, tsWorker(t, s, h.fault), nil, holdoutCases)
				default:
					p := packNamed(t, h.pack)
					needCompiler(t, p)
					s, err := setup.Load(filepath.Join(p.dir, cfg), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
					if err != nil {
						t.Fatal(err)
					}
					rep = campaign(t, s, faultyCommand(t, p, h.fault), nil, holdoutCases)
				}
				caught, rejected := map[string]int{}, 0
				cases := map[int]bool{}
				for _, f := range rep.Findings {
					if f.Kind == result.RejectedFollowUp {
						rejected++
						continue
					}
					caught[f.Relation+" / "+f.Checker]++
					cases[f.Case] = true
				}
				var by []string
				for _, k := range sortedKeys(caught) {
					by = append(by, fmt.Sprintf("%s %d", k, caught[k]))
				}
				fmt.Fprintf(&table, "| %s | %s | %s | %d | %d | %d | %s |\n", h.pack, h.fault, cfg, rep.TestCases, len(cases), rejected, strings.Join(by, ", "))
				if len(caught) == 0 {
					t.Errorf("%s went unnoticed by %s in %d test cases", h.fault, cfg, rep.TestCases)
				}
			})
		}
	}
	t.Logf("the holdout check:\n%s", table.String())
}

func packNamed(t *testing.T, dir string) pack {
	t.Helper()
	for _, p := range packs {
		if p.dir == dir {
			return p
		}
	}
	t.Fatalf("no pack %s", dir)
	return pack{}
}

// faultyCommand is the pack's compiler with its faulty/ wrapper, given
// flags (a -fault= to choose another fault than the shipped one).
func faultyCommand(t *testing.T, p pack, flags ...string) transpiler.Transpiler {
	t.Helper()
	gen, err := filepath.Abs(filepath.Join(p.dir, "gen.sh"))
	if err != nil {
		t.Fatal(err)
	}
	argv := append([]string{buildFaulty(t, p)}, flags...)
	tr, err := transpiler.NewCommand(transpiler.Command{Process: spec.Process{
		Argv: append(argv, gen, transpiler.PlaceholderInput, transpiler.PlaceholderOutDir),
		Dir:  p.dir, Reject: []int{1}, Timeout: time.Minute,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
