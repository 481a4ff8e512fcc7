package faultinject

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

func sampleCommand(fx *sampleFixture) transpiler.Command {
	return transpiler.Command{Process: spec.Process{Argv: []string{fx.m.Binary, "{input}", "{outdir}"}, Env: []string{EnvRole + "=ignored"}}}
}

func sampleInput(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sample.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPrepare checks that the preparatory step drops exactly the faults
// that crash (the out-of-range index of the one-line loop) or hang (the
// loop of Digits) on the sample, with and without the shortcut that skips
// the sites the sample does not reach.
func TestPrepare(t *testing.T) {
	fx := getSample(t)
	in := sampleInput(t, activationInput)
	hangs := hangingFaults(t, fx)
	crash := FaultID(fx.site(t, "one-line", ForCond, 0).ID, true)
	want := slices.Sorted(slices.Values(append(slices.Clone(hangs), crash)))
	for _, exhaustive := range []bool{false, true} {
		var runs []FaultRun
		start := time.Now()
		got, err := Prepare(context.Background(), sampleCommand(fx), in, fx.m, PrepareOptions{
			Timeout: 2 * time.Second, Exhaustive: exhaustive, OnRun: func(r FaultRun) { runs = append(runs, r) },
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("exhaustive %t: %d runs in %v", exhaustive, len(runs), time.Since(start).Round(time.Millisecond))
		if !slices.Equal(got, want) {
			t.Errorf("exhaustive %t: dropped %v, want %v", exhaustive, got, want)
		}
		// The else-if is not reached: its faults run only when exhaustive.
		elseIf := FaultID(fx.site(t, "sign-neg", ElseIfCond, 0).ID, true)
		ran := slices.ContainsFunc(runs, func(r FaultRun) bool { return r.Fault == elseIf })
		if ran != exhaustive || (exhaustive && len(runs) != 2*len(fx.m.Sites)) {
			t.Errorf("exhaustive %t: %d runs, the unreached fault %d run: %t", exhaustive, len(runs), elseIf, ran)
		}
		for _, r := range runs {
			wantStatus := transpiler.Accepted
			switch {
			case slices.Contains(hangs, r.Fault):
				wantStatus = transpiler.TimedOut
			case r.Fault == crash:
				wantStatus = transpiler.Crashed
			case r.Fault == FaultID(fx.site(t, "main-args", IfCond, 0).ID, true),
				r.Fault == FaultID(fx.site(t, "main-err", IfCond, 0).ID, true):
				wantStatus = transpiler.Rejected
			}
			if r.Status != wantStatus || r.Dropped != slices.Contains(want, r.Fault) {
				t.Errorf("run of fault %d: %s, dropped %t; want %s", r.Fault, r.Status, r.Dropped, wantStatus)
			}
		}
	}
	// A sample that the transpiler rejects cannot prepare anything.
	if _, err := Prepare(context.Background(), sampleCommand(fx), sampleInput(t, "x"), fx.m, PrepareOptions{}); err == nil {
		t.Error("Prepare accepted a rejected sample")
	}
}

// TestSession runs base and follow-up requests through a Session: base
// runs are fault-free, follow-up runs report the fault they activated.
func TestSession(t *testing.T) {
	fx := getSample(t)
	ledger, err := OpenLedger(filepath.Join(t.TempDir(), "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.Exclude(hangingFaults(t, fx)); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(sampleCommand(fx), ledger)
	if err != nil {
		t.Fatal(err)
	}
	var _ transpiler.Transpiler = s
	want := expectedActivations(reachOrder(t, fx, activationInput), nil)
	clean := runBin(t, fx.orig, activationInput)
	ctx := context.Background()
	for i := range 4 {
		res, fault, err := s.TranspileFault(ctx, transpiler.Request{Name: "in.txt", Src: []byte(activationInput), Role: transpiler.Base})
		if err != nil {
			t.Fatal(err)
		}
		if fault != NoFault || res.Status != transpiler.Accepted || string(res.Files["out.txt"]) != clean.out {
			t.Errorf("base run %d: fault %d, %s, %q", i, fault, res.Status, res.Files["out.txt"])
		}
		res, fault, err = s.TranspileFault(ctx, transpiler.Request{Name: "in.txt", Src: []byte(activationInput), Role: transpiler.FollowUp})
		if err != nil {
			t.Fatal(err)
		}
		if fault != want[i] {
			t.Errorf("follow-up run %d activated %d, want %d (%s)", i, fault, want[i], res.Status)
		}
	}
}

// TestConfirm re-runs a pair with a fault forced in both runs.
func TestConfirm(t *testing.T) {
	fx := getSample(t)
	base := transpiler.Request{Name: "in.txt", Src: []byte("5")}
	follow := transpiler.Request{Name: "in.txt", Src: []byte("5 6")}
	// The relation: appending a number appends a line.
	check := func(b, f *transpiler.Result) (bool, error) {
		return b.Status != transpiler.Accepted || f.Status != transpiler.Accepted ||
			!bytes.HasPrefix(f.Files["out.txt"], b.Files["out.txt"]), nil
	}
	// Forcing the sign test false changes both outputs alike: the relation
	// holds between the two faulty runs, the finding is not confirmed.
	sign := FaultID(fx.site(t, "sign-pos", IfCond, 0).ID, false)
	failed, err := Confirm(context.Background(), sampleCommand(fx), sign, base, follow, check)
	if err != nil || failed {
		t.Errorf("fault %d: confirmed %t, %v; want not confirmed", sign, failed, err)
	}
	// Forcing the loop of the one-line for true crashes both runs: confirmed.
	crash := FaultID(fx.site(t, "one-line", ForCond, 0).ID, true)
	failed, err = Confirm(context.Background(), sampleCommand(fx), crash, base, follow, check)
	if err != nil || !failed {
		t.Errorf("fault %d: confirmed %t, %v; want confirmed", crash, failed, err)
	}
}

// TestLedger exercises the tester's side of the ledger.
func TestLedger(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ledger")
	l, err := OpenLedger(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Exclude([]int{9, 3, 9}); err != nil {
		t.Fatal(err)
	}
	if err := l.Exclude([]int{3, 4}); err != nil {
		t.Fatal(err)
	}
	// Activations are appended by the runtime; write them as it does.
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("a 12 run one\na 7 run-2\ngarbage\na 5")
	f.Close()
	l2, err := OpenLedger(p) // opening an existing ledger keeps it
	if err != nil {
		t.Fatal(err)
	}
	ex, err := l2.Excluded()
	if err != nil || !slices.Equal(ex, []int{3, 4, 9}) {
		t.Errorf("Excluded = %v, %v", ex, err)
	}
	done, err := l2.Executed()
	if err != nil || !slices.Equal(done, []int{7, 12}) { // the unterminated line does not count
		t.Errorf("Executed = %v, %v", done, err)
	}
	if f, ok, err := l2.ActiveFor("run-2"); err != nil || !ok || f != 7 {
		t.Errorf("ActiveFor(run-2) = %d, %t, %v", f, ok, err)
	}
	if f, ok, err := l2.ActiveFor("run-3"); err != nil || ok || f != NoFault {
		t.Errorf("ActiveFor(run-3) = %d, %t, %v", f, ok, err)
	}
	if err := l2.Reset(); err != nil {
		t.Fatal(err)
	}
	if ex, _ := l2.Excluded(); len(ex) != 0 {
		t.Errorf("after Reset: excluded %v", ex)
	}
	if got := readFile(t, p); got+"\n" != "# mcpt fault ledger v1\n" {
		t.Errorf("after Reset: %q", got)
	}
}
