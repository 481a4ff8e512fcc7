package realbugs

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// shortBugs are the bugs of the benchmark's short tier: one of a
// JavaScript transpiler (npm), one of a Go protoc plugin (go install),
// both found in a few test cases by the packs as shipped.
var shortBugs = []string{"babel-15768", "protoc-gen-go-3023"}

// TestShortTier (tools tier): the benchmark as `mcpt bench --realbugs`
// runs it, on two of its bugs with a smaller budget: each release
// installed by version, each bug found on its buggy release by a finding
// the fixed release does not have, and no false alarm on the fixed one.
func TestShortTier(t *testing.T) {
	testtier.Tools(t, "npm (nodejs) and go", "npm", "node", "go", "protoc")
	dir, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	kinds := slices.Concat([]yamlrel.CheckerKind{}, protorel.Kinds, semrel.Kinds)
	tools := &setup.Tools{CheckerKinds: kinds}
	if err := tools.Parsers.Add(typescript.Parser); err != nil { // the ts2js packs read seeds as TypeScript
		t.Fatal(err)
	}
	rows, err := Run(context.Background(), Options{
		Root: "../..", IDs: shortBugs, MaxCases: 60,
		Tools: tools, Cache: &Cache{Dir: dir, Log: t.Logf}, Log: &log,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(rows) != len(shortBugs) {
		t.Fatalf("%d rows, want %d\n%s", len(rows), len(shortBugs), log.String())
	}
	for _, r := range rows {
		if r.Error != "" {
			t.Errorf("%s: %s", r.ID, r.Error)
			continue
		}
		if !r.Found {
			t.Errorf("%s: not found on %s in %d test cases", r.ID, r.Buggy, r.BuggyCases)
		}
		if r.FixedCases == 0 || r.FixedFindings != r.FixedKnown {
			t.Errorf("%s: %d false alarms in %d test cases on %s", r.ID, r.FixedFindings-r.FixedKnown, r.FixedCases, r.Fixed)
		}
	}
	if t.Failed() {
		t.Log(log.String())
	}
}
