package merge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
)

// BenchmarkMerge merges four shards with 2,000 findings in all, their
// bundles beside the merged output (as Shards refers to them in place).
// MCPT_BENCH_MERGE=DIR merges the shard-* directories of DIR instead (the
// shards of a real campaign) into DIR/bench-merged, written anew on each
// iteration:
//
//	mcpt run -c examples/cll/demo.yaml --max-cases 80000 --shard I/4 --findings-exit-code 0 -o DIR/shard-I  (I = 0…3)
//	MCPT_BENCH_MERGE=DIR go test ./merge -run '^$' -bench Merge -benchtime 1x -benchmem
func BenchmarkMerge(b *testing.B) {
	parent := os.Getenv("MCPT_BENCH_MERGE")
	if parent == "" {
		parent = b.TempDir()
		writeShards(b, parent, 4, 2000)
	}
	dirs, err := filepath.Glob(filepath.Join(parent, "shard-*"))
	if err != nil || len(dirs) == 0 {
		b.Fatalf("no shard-* in %s", parent)
	}
	out := filepath.Join(parent, "bench-merged")
	var findings int
	for b.Loop() {
		b.StopTimer()
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		m, err := Shards(dirs, out, Options{})
		if err != nil {
			b.Fatal(err)
		}
		findings = len(m.Findings)
	}
	b.ReportMetric(float64(findings), "findings")
}

// writeShards writes n shards of a campaign with findings findings in all,
// each with its bundle, below parent.
func writeShards(b *testing.B, parent string, n, findings int) {
	b.Helper()
	for s := range n {
		dir := filepath.Join(parent, fmt.Sprintf("shard-%d", s))
		r := &result.Report{Tool: "mcpt", Mode: "mcp", Seed: 1, Shard: fmt.Sprintf("%d/%d", s, n), Campaign: "sha256:bench",
			ByRelation: map[string]result.RelationStats{}, Stopped: "budget"}
		for i := s; i < findings; i += n {
			rel := fmt.Sprintf("relation-%d", i%3)
			seed := fmt.Sprintf("seed-%d.cll", i%(4*n))
			expected := strings.Repeat("line\n", 20)
			f := result.Finding{
				ID: fmt.Sprintf("c%06d-%s-1", i, rel), Kind: result.Oracle, Relation: rel, SeedFile: seed,
				Spot: result.Spot{Index: i % 4, Line: 3, Col: 1, Desc: "a spot"}, Case: i, Mode: "mcp",
				Checker: "equal", File: "out.h", Message: "out.h in o′ differs from o",
				Expected: expected, Actual: expected + "extra\n", Diff: "--- expected/out.h\n+++ actual/out.h\n@@ -20,0 +21 @@\n+extra\n",
				Bindings: map[string]string{"N": fmt.Sprintf("Name%d", i)}, Signature: rel + "/equal/out.h",
			}
			f.Bundle = bundle.Path(f.ID)
			bd := &bundle.Bundle{Finding: f, Base: []byte("program\n"), FollowUp: []byte("program\nextra\n"),
				BaseOut: map[string][]byte{"out.h": []byte(expected)}, FollowUpOut: map[string][]byte{"out.h": []byte(f.Actual)},
				Repro: bundle.ReproCommand("", filepath.Join(dir, f.Bundle))}
			if err := bundle.Write(filepath.Join(dir, f.Bundle), bd); err != nil {
				b.Fatal(err)
			}
			r.Findings = append(r.Findings, f)
			r.TestCases++
			st := r.ByRelation[rel]
			st.TestCases++
			st.Findings++
			r.ByRelation[rel] = st
			r.Cases = append(r.Cases, result.CaseSummary{Seed: seed, Relation: rel, TestCases: 1, Findings: 1})
		}
		r.Groups = signature.Group(r.Findings)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := r.Save(filepath.Join(dir, "report.json")); err != nil {
			b.Fatal(err)
		}
	}
}
