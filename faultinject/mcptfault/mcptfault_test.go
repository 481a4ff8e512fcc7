package mcptfault

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestFaultIDs(t *testing.T) {
	for site := range 5 {
		for _, force := range []bool{true, false} {
			if s, f := SiteOf(FaultID(site, force)); s != site || f != force {
				t.Errorf("SiteOf(FaultID(%d, %t)) = %d, %t", site, force, s, f)
			}
		}
	}
}

func TestRecords(t *testing.T) {
	data := Header + FormatRecord(Record{Kind: Excluded, Fault: 3}) +
		FormatRecord(Record{Kind: Activated, Fault: 8, Run: "run 1\t"}) + "junk line\nz 4\na -1 x\na 9 partial"
	recs, used := ParseRecords([]byte(data))
	want := []Record{{Excluded, 3, ""}, {Activated, 8, "run_1_"}}
	if !slices.Equal(recs, want) {
		t.Errorf("ParseRecords = %v, want %v", recs, want)
	}
	if used != len(data)-len("a 9 partial") {
		t.Errorf("used %d of %d bytes", used, len(data))
	}
}

// reset puts the runtime back in its initial state and configures it with
// env.
func reset(t testing.TB, env map[string]string) {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if ledger != nil {
		ledger.Close()
	}
	if trace != nil {
		trace.Close()
	}
	ledger, trace, readTo, reached, runID = nil, nil, 0, nil, ""
	done.Store(nil)
	setupOnce = sync.Once{}
	setupOnce.Do(func() {})
	state.Store(configure(func(k string) string { return env[k] }))
}

// TestActivateInProcess calls B from many goroutines of one process: one
// fault is activated, recorded once, and forced from then on.
func TestActivateInProcess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ledger")
	if err := os.WriteFile(p, []byte(Header+"x 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{EnvRole: RoleFollowUp, EnvLedger: p, EnvRun: "r1"}
	reset(t, env)
	B(1, true) // activates fault 2: site 1 forced true
	if !B(1, false) || !B(2, true) || B(3, false) {
		t.Error("site 1 is not forced true, or another site is forced")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				if B(i%4, false) != (i%4 == 1) {
					t.Error("B gives a wrong value")
					return
				}
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(p)
	if got, _ := ParseRecords(b); !slices.Equal(got, []Record{{Excluded, 6, ""}, {Activated, 2, "r1"}}) {
		t.Errorf("ledger %v", got)
	}

	// The next run skips fault 2, already executed, and the excluded 6
	// (site 3 forced true): it activates fault 3, site 1 forced false.
	env[EnvRun] = "r2"
	reset(t, env)
	if B(1, true) {
		t.Error("B(1, true) = true, want the forced false")
	}
	// A base run never activates.
	env[EnvRole], env[EnvRun] = "base", "r3"
	reset(t, env)
	for s := range 10 {
		if !B(s, true) || B(s, false) {
			t.Fatal("a base run forced a branch")
		}
	}
	b, _ = os.ReadFile(p)
	if got, _ := ParseRecords(b); len(got) != 3 || got[2] != (Record{Activated, 3, "r2"}) {
		t.Errorf("ledger %v", got)
	}
	reset(t, nil)
}

// BenchmarkBOff measures B when no fault injection is configured.
func BenchmarkBOff(b *testing.B) {
	reset(b, nil)
	n := 0
	for i := 0; b.Loop(); i++ {
		if B(i&7, i&1 == 0) {
			n++
		}
	}
	_ = n
}

// BenchmarkBSearching measures B in a follow-up run whose reached sites
// have all been executed.
func BenchmarkBSearching(b *testing.B) {
	p := filepath.Join(b.TempDir(), "ledger")
	recs := Header
	for f := range 16 {
		recs += FormatRecord(Record{Kind: Excluded, Fault: f})
	}
	if err := os.WriteFile(p, []byte(recs), 0o644); err != nil {
		b.Fatal(err)
	}
	reset(b, map[string]string{EnvRole: RoleFollowUp, EnvLedger: p})
	for i := 0; b.Loop(); i++ {
		B(i&7, true)
	}
	reset(b, nil)
}
