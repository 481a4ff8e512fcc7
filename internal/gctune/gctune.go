// Package gctune sets the garbage collector's target from the live heap:
// a large target (GOGC 400) while the heap is small, as a campaign's is,
// where it saves collector time for a few MB; a smaller one as the live
// heap grows, so that the heap never grows to five times a live heap of
// hundreds of MB (the model of a seed of megabytes).
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Headroom is what the heap may grow by beyond the live heap before a
// collection, as long as the target stays between the lowest and the
// highest percentage.
const Headroom = 256 << 20

// The bounds of the target, in percent of the live heap.
const (
	Lowest  = 100
	Highest = 400
)

var (
	mu      sync.Mutex
	highest = Highest
	started bool
)

// Percent is the target for a live heap of live bytes: Headroom over it,
// between Lowest and high percent of it.
func Percent(live uint64, high int) int {
	if live == 0 {
		return high
	}
	p := int(min(uint64(Headroom)*100/live, uint64(high)))
	return max(p, min(Lowest, high))
}

// Start sets the target to Highest and then, after each collection, to
// Percent of the live heap it left.
func Start() {
	mu.Lock()
	defer mu.Unlock()
	debug.SetGCPercent(highest)
	if started {
		return
	}
	started = true
	arm()
}

// Cap lowers the highest target (a command whose live heap is a whole
// report: the default 100).
func Cap(high int) {
	mu.Lock()
	defer mu.Unlock()
	highest = min(highest, high)
	debug.SetGCPercent(Percent(live(), highest))
}

// sentinel is garbage whose finalizer runs after the collection that
// found it so: one a cycle (large enough, and with a pointer, not to be
// in a block of tiny objects, whose finalizers may never run).
type sentinel struct {
	_ *sentinel
	_ [16]byte
}

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		mu.Lock()
		debug.SetGCPercent(Percent(live(), highest))
		mu.Unlock()
		arm()
	})
}

func live() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
