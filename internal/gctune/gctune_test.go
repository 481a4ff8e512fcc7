package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		high int
		want int
	}{
		{0, Highest, Highest},
		{4 << 20, Highest, Highest},      // a campaign's heap: the large target
		{Headroom / 4, Highest, Highest}, // 64 MB: still 400 %
		{Headroom / 2, Highest, 200},     // 128 MB: 256 MB more
		{Headroom, Highest, Lowest},      // 256 MB: 100 %
		{4 * Headroom, Highest, Lowest},  // a seed's model of a GB: never below 100 %
		{4 << 20, 100, 100},              // capped (a whole report)
		{4 * Headroom, 50, 50},           // a cap below Lowest is kept
	} {
		if got := Percent(c.live, c.high); got != c.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", c.live, c.high, got, c.want)
		}
	}
}

// TestStart: after a collection, the target is the one of the live heap
// the collection left (a heap of 300 MB held: 100 %, not 400 %).
func TestStart(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 300 MB")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Start()
	if got := debug.SetGCPercent(Highest); got != Highest {
		t.Fatalf("target %d %% after Start, want %d", got, Highest)
	}
	held := make([]byte, 300<<20)
	for i := range held {
		held[i] = 1
	}
	deadline := time.Now().Add(time.Minute)
	for {
		runtime.GC()
		got := debug.SetGCPercent(-1)
		debug.SetGCPercent(got)
		if got == Lowest {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("target %d %% with a live heap of 300 MB, want %d", got, Lowest)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(held)
}
