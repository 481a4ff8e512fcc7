package dtsprobe

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/tree"
)

// BenchmarkCheck measures dts-probe with its worker warm: a new follow-up
// each time (its probes checked against the source twice and against the
// declaration file once). It reports checks/s.
func BenchmarkCheck(b *testing.B) {
	ts := packTypeScript(b)
	const src = `export interface Api {
  readonly base: string;
  get(path: string): string;
  zqping?(timeout?: number): void;
}
`
	const decl = `export interface Api {
    readonly base: string;
    get(path: string): string;
    zqping?(timeout?: number): void;
}
`
	o2 := tree.Tree{"api.d.ts": []byte(decl)}
	run := func(i int) {
		c := &Check{File: "api.d.ts", Member: "zqping", Of: "Api", TypeScript: ts, Source: fmt.Appendf(nil, "%s// %d\n", src, i)}
		if v := c.DecideContext(context.Background(), nil, o2); len(v.Fails)+len(v.Undecided) > 0 {
			b.Fatalf("%+v", v)
		}
	}
	run(-1)
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		run(i)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "checks/s")
}
