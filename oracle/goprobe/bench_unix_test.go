//go:build unix

package goprobe

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/tree"
)

// BenchmarkCheck measures go-probe with the runtime prepared: a new
// follow-up each time (a comment differs), o's facts from the cache of
// bases, the follow-up read without building (the probe is built only
// when the reading refuses). It reports checks/s and the share of checks
// that built.
func BenchmarkCheck(b *testing.B) {
	testtier.Tools(b, "the Go toolchain", "go")
	ar, err := txtar.ParseFile("testdata/deprecated-field.txtar")
	if err != nil {
		b.Fatal(err)
	}
	var fu []byte
	for _, f := range ar.Files {
		if f.Name == "o2/shop.pb.go" {
			fu = f.Data
		}
	}
	remote := readTestdata(b, "common/remote.pb.go.txt")
	o := tree.Tree{"shop.pb.go": readTestdata(b, "common/shop.pb.go.txt"), "remote.pb.go": remote}
	c := &Check{File: "shop.pb.go", Element: Field, Elem: "zqold", Deprecated: "true"}
	run := func(i int) {
		o2 := tree.Tree{"shop.pb.go": fmt.Appendf(nil, "%s// %d\n", fu, i), "remote.pb.go": remote}
		if v := c.DecideContext(context.Background(), o, o2); len(v.Fails)+len(v.Undecided) > 0 {
			b.Fatalf("%+v", v)
		}
	}
	run(-1)
	b.ResetTimer()
	st := ReadStats()
	start, cpu := time.Now(), childCPU()
	for i := range b.N {
		run(i)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "checks/s")
	b.ReportMetric(float64(ReadStats().Built-st.Built)/float64(b.N), "built/check")
	// The processor time of go build and the probe, which other work on
	// the machine disturbs less than the clock.
	b.ReportMetric((childCPU()-cpu).Seconds()/float64(b.N), "cpu-s/check")
}

// childCPU is the processor time of the processes this one started and
// waited for.
func childCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
