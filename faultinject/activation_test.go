package faultinject

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// activationInput is the sample input of the activation tests.
const activationInput = "5 123 4" // all positive: the else-if is never reached

// reachOrder runs the instrumented sample with a trace and returns the
// sites in the order the run first reaches them.
func reachOrder(t *testing.T, fx *sampleFixture, input string) []int {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "trace")
	if r := runBin(t, fx.m.Binary, input, EnvTrace+"="+trace); r != runBin(t, fx.orig, input) {
		t.Fatalf("a traced run differs from the original: %+v", r)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sites []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		id, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, id)
	}
	return sites
}

// expectedActivations is the sequence of faults that successive follow-up
// runs activate: the faults of the sites in the order a run first reaches
// them, forced true before forced false, without the excluded ones. Each
// run is fault-free up to its activation, so it follows the fault-free
// path until it meets the first fault not yet taken.
func expectedActivations(order []int, excluded map[int]bool) []int {
	var seq []int
	for _, s := range order {
		for _, f := range []int{FaultID(s, true), FaultID(s, false)} {
			if !excluded[f] {
				seq = append(seq, f)
			}
		}
	}
	return seq
}

// TestActivationProtocol runs follow-up runs one after the other against a
// ledger: each activates the first reached fault that no earlier run
// executed, records it under its run token and behaves exactly as a run
// with that fault forced; once every reached fault is taken, runs are
// fault-free; base runs never activate.
func TestActivationProtocol(t *testing.T) {
	fx := getSample(t)
	order := reachOrder(t, fx, activationInput)
	if len(order) < 10 || len(order) == len(fx.m.Sites) {
		t.Fatalf("the input reaches %d of %d sites; the test wants some but not all", len(order), len(fx.m.Sites))
	}
	ledger, err := OpenLedger(filepath.Join(t.TempDir(), "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	// Exclude both faults of the second reached site and the forced-true
	// fault of the third; and the faults that make the loop of Digits
	// endless, as the preparatory step would.
	excluded := map[int]bool{FaultID(order[1], true): true, FaultID(order[1], false): true, FaultID(order[2], true): true}
	for _, h := range hangingFaults(t, fx) {
		excluded[h] = true
	}
	if err := ledger.Exclude(sortedKeys(excluded)); err != nil {
		t.Fatal(err)
	}
	want := expectedActivations(order, excluded)
	clean := runBin(t, fx.orig, activationInput)

	for i, f := range want {
		// A base run in between changes nothing.
		if i%5 == 0 {
			if r := runBin(t, fx.m.Binary, activationInput, append([]string{EnvRole + "=base"}, ledger.Env("base")...)...); r != clean {
				t.Fatalf("base run: %+v, want %+v", r, clean)
			}
		}
		run := fmt.Sprintf("run-%d", i)
		r := runBin(t, fx.m.Binary, activationInput, append([]string{EnvRole + "=follow-up"}, ledger.Env(run)...)...)
		got, ok, err := ledger.ActiveFor(run)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || got != f {
			t.Fatalf("run %d activated %d (%t), want %s", i, got, ok, fx.m.Describe(f))
		}
		if forced := runBin(t, fx.m.Binary, activationInput, EnvForce+"="+strconv.Itoa(f)); !sameRun(r, forced) {
			t.Errorf("run %d with fault %d activated: %+v; forced from the start: %+v", i, f, r, forced)
		}
	}
	// Every reached fault is taken: the next run is fault-free.
	r := runBin(t, fx.m.Binary, activationInput, append([]string{EnvRole + "=follow-up"}, ledger.Env("last")...)...)
	if r != clean {
		t.Errorf("run after the last activation: %+v, want %+v", r, clean)
	}
	if f, ok, _ := ledger.ActiveFor("last"); ok {
		t.Errorf("run after the last activation activated %d", f)
	}
	// Another input reaches the else-if, whose faults come next.
	runBin(t, fx.m.Binary, "-3", append([]string{EnvRole + "=follow-up"}, ledger.Env("other")...)...)
	elseIf := FaultID(fx.site(t, "sign-neg", ElseIfCond, 0).ID, true)
	if f, ok, _ := ledger.ActiveFor("other"); !ok || f != elseIf || slices.Contains(want, f) {
		t.Errorf("a run on another input activated %d (%t), want %d", f, ok, elseIf)
	}
	executed, err := ledger.Executed()
	if err != nil {
		t.Fatal(err)
	}
	if len(executed) != len(want)+1 {
		t.Errorf("%d faults executed, want %d", len(executed), len(want)+1)
	}
	for _, f := range executed {
		if excluded[f] {
			t.Errorf("excluded fault %d was activated", f)
		}
	}
	// Reset forgets everything.
	if err := ledger.Reset(); err != nil {
		t.Fatal(err)
	}
	runBin(t, fx.m.Binary, activationInput, append([]string{EnvRole + "=follow-up"}, ledger.Env("again")...)...)
	if f, ok, _ := ledger.ActiveFor("again"); !ok || f != FaultID(order[0], true) {
		t.Errorf("after Reset, the first run activated %d (%t), want %d", f, ok, FaultID(order[0], true))
	}
}

// TestParallelActivation starts many follow-up runs at once on one ledger:
// no fault is activated twice, and together they take exactly the first
// faults of the sequence.
func TestParallelActivation(t *testing.T) {
	fx := getSample(t)
	order := reachOrder(t, fx, activationInput)
	want := expectedActivations(order, nil)
	if hangs := hangingFaults(t, fx); slices.ContainsFunc(want[:16], func(f int) bool { return slices.Contains(hangs, f) }) {
		t.Fatal("the first faults of the sequence include an endless loop")
	}
	for round := range 3 {
		ledger, err := OpenLedger(filepath.Join(t.TempDir(), "ledger"))
		if err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(t.TempDir(), "in.txt")
		if err := os.WriteFile(in, []byte(activationInput), 0o644); err != nil {
			t.Fatal(err)
		}
		const procs = 16
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, procs)
		for p := range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(fx.m.Binary, in, t.TempDir())
				cmd.Env = append(cleanEnv(), EnvRole+"=follow-up")
				cmd.Env = append(cmd.Env, ledger.Env(fmt.Sprintf("p%d", p))...)
				<-start
				errs[p] = cmd.Run() // a fault may well fail the run
			}()
		}
		close(start)
		wg.Wait()

		as, err := ledger.Activations()
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		runs := map[string]bool{}
		for _, a := range as {
			got = append(got, a.Fault)
			if runs[a.Run] {
				t.Errorf("round %d: run %s activated twice", round, a.Run)
			}
			runs[a.Run] = true
		}
		slices.Sort(got)
		if w := slices.Sorted(slices.Values(want[:procs])); !slices.Equal(got, w) {
			t.Errorf("round %d: activations %v, want %v (the first %d of the sequence); errors %v\nledger:\n%s",
				round, got, w, procs, errs, readFile(t, ledger.Path()))
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// hangingFaults are the faults that make the sample loop for ever.
func hangingFaults(t *testing.T, fx *sampleFixture) []int {
	return []int{
		FaultID(fx.site(t, "digits-loop", ForCond, 0).ID, true),
		FaultID(fx.site(t, "digits-loop", OrOperand, 0).ID, true),
		FaultID(fx.site(t, "digits-neg", OrOperand, 0).ID, true),
	}
}

// sameRun compares two runs; the standard error of a panic is not
// compared, as it holds addresses.
func sameRun(a, b runResult) bool {
	return a.out == b.out && a.code == b.code && (a.code == 2 || a.stderr == b.stderr)
}
