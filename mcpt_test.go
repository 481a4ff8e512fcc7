package mcpt_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestLoadOptions: what the options add is what a configuration can name,
// and options that contradict each other are an error.
func TestLoadOptions(t *testing.T) {
	_, err := mcpt.Load("examples/cll/go-relation.yaml", mcpt.Builtin(cllc.Name, cllc.New))
	if err == nil || !strings.Contains(err.Error(), `go-relation.yaml:11:8: no Go relation named "add-actuator-command-go"`) {
		t.Errorf("without the Go relation: %v", err)
	}
	_, err = mcpt.Load("examples/cll/go-relation.yaml", mcpt.Relations(gorel.AddCommand()), mcpt.Relations(gorel.AddCommand()))
	if err == nil || !strings.Contains(err.Error(), "relation add-actuator-command-go defined twice") {
		t.Errorf("a relation given twice: %v", err)
	}
	_, err = mcpt.Load("examples/cll/go-relation.yaml", mcpt.Builtin("x", cllc.New), mcpt.Builtin("x", cllc.New))
	if err == nil || !strings.Contains(err.Error(), "builtin transpiler x given twice") {
		t.Errorf("a builtin given twice: %v", err)
	}

	// A builtin of the program's own, under a name of its choosing.
	traffic, err := filepath.Abs("examples/cll/traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "mcpt.yaml")
	yaml := "transpiler: {builtin: own-cllc}\nseeds: {files: ['" + traffic + "']}\nrelations: {go: [add-actuator-command-go]}\nbudget: {max_cases: 7}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpt.Load(cfg, mcpt.Relations(gorel.AddCommand())); err == nil || !strings.Contains(err.Error(), `unknown builtin transpiler "own-cllc"`) {
		t.Errorf("without the builtin: %v", err)
	}
	c, err := mcpt.Load(cfg, mcpt.Relations(gorel.AddCommand()), mcpt.Builtin("own-cllc", cllc.New))
	rep := runLoaded(t, c, err)
	if rep.TestCases != 7 || len(rep.Findings) != 0 {
		t.Errorf("%d test cases, %d findings; want 7 and none", rep.TestCases, len(rep.Findings))
	}
}

// TestLoadFlags: a campaign loaded from Go has the configuration's flags
// and runs each seed under each combination; a Go relation that says what
// it supports stops Load when a configured value is not among them.
func TestLoadFlags(t *testing.T) {
	traffic, err := filepath.Abs("examples/cll/traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	rel := *gorel.AddCommand()
	rel.Supports = &relation.Supports{Source: "gorel", Flags: map[string][]string{"fault": {"none", "reversed"}}}
	cfg := filepath.Join(t.TempDir(), "mcpt.yaml")
	write := func(values string) {
		yaml := "transpiler: {builtin: cllc}\nseeds: {files: ['" + traffic + "']}\nrelations: {go: [add-actuator-command-go]}\nbudget: {max_cases: 12}\n" +
			"flags: {fault: {" + values + "}}\n"
		if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := []mcpt.Option{mcpt.Relations(&rel), mcpt.Builtin(cllc.Name, cllc.New)}
	write("none: [], reversed: [--fault, reverse-enums], sorted: [--fault, sorted-resets]")
	if _, err := mcpt.Load(cfg, opts...); err == nil || !strings.Contains(err.Error(), "mcpt.yaml:5:63: flags: fault=sorted is not supported by the pack, which knows fault none, reversed (gorel)") {
		t.Errorf("a value the relation does not support: %v", err)
	}
	write("none: [], reversed: [--fault, reverse-enums]")
	c, err := mcpt.Load(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.Options.Flags.Size(); n != 2 {
		t.Fatalf("%d combinations", n)
	}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != 12 || len(rep.Flags) != 2 || rep.Seeds.Total != 2 {
		t.Errorf("%d test cases, flags %q, %d seeds", rep.TestCases, rep.Flags, rep.Seeds.Total)
	}
}

// ownParser is a parser of the program's own: the CLL grammar under
// another name, counting the seeds it parses.
type ownParser struct {
	syntax.Parser
	name   string
	parses atomic.Int64
}

func (p *ownParser) Lang() string { return p.name }

func (p *ownParser) Parse(name string, src []byte) (*syntax.Tree, error) {
	p.parses.Add(1)
	return p.Parser.Parse(name, src)
}

// TestLoadParsers: a parser that an option gives is what relation files
// name by its name, and it parses the seeds; without the option the name
// is an error at its place, and a parser named as one of mcpt's own, or
// two of one name, are errors.
func TestLoadParsers(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"cll.defs.yaml", "add-timer.yaml"} {
		b, err := os.ReadFile(filepath.Join("examples", "cll", "relations", f))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.Replace(string(b), "syntax: ../cll.grammar", "syntax: own-cll", 1))
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	traffic, err := filepath.Abs("examples/cll/traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "mcpt.yaml")
	yaml := "transpiler: {builtin: cllc}\nseeds: {files: ['" + traffic + "']}\nrelations: {files: [add-timer.yaml]}\nbudget: {max_cases: 7}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	builtin := mcpt.Builtin(cllc.Name, cllc.New)

	_, err = mcpt.Load(cfg, builtin)
	if err == nil || !strings.Contains(err.Error(), `cll.defs.yaml:10:9: syntax: no parser "own-cll" in this mcpt (it has: cll, flatbuffers, protobuf, thrift;`) {
		t.Errorf("without the parser: %v", err)
	}
	p := &ownParser{Parser: lang.CLL, name: "own-cll"}
	c, err := mcpt.Load(cfg, builtin, mcpt.Parsers(p))
	rep := runLoaded(t, c, err)
	if rep.TestCases != 7 || len(rep.Findings) != 0 || p.parses.Load() == 0 {
		t.Errorf("%d test cases, %d findings, %d parses; want 7, none and some", rep.TestCases, len(rep.Findings), p.parses.Load())
	}

	_, err = mcpt.Load(cfg, builtin, mcpt.Parsers(p, &ownParser{Parser: lang.CLL, name: "own-cll"}))
	if err == nil || !strings.Contains(err.Error(), `two parsers named "own-cll"`) {
		t.Errorf("two parsers of one name: %v", err)
	}
	_, err = mcpt.Load(cfg, builtin, mcpt.Parsers(&ownParser{Parser: lang.CLL, name: "thrift"}))
	if err == nil || !strings.Contains(err.Error(), "parser thrift: mcpt has its own") {
		t.Errorf("a parser named as mcpt's own: %v", err)
	}
}

// runLoaded runs the campaign that Load returned with err, and closes it;
// it fails t when either failed.
func runLoaded(t *testing.T, c *mcpt.Campaign, err error) *result.Report {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
