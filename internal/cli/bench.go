package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/bench"
	"github.com/mcpt-tool/mcpt/bench/realbugs"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/result"
)

type benchCmd struct {
	JSON           string `name:"json" placeholder:"FILE" help:"Also write the figures as JSON to this file."`
	Cases          int    `help:"Test cases per campaign with cllc in process (default 2000; 20 with --quick)."`
	ExecCases      int    `name:"exec-cases" help:"Test cases per campaign with the external cllc (default 300; 40 with --quick)."`
	Repeat         int    `help:"Times each compared run with the external cllc is repeated, those in process three times as often; medians are reported (default 5; 1 with --quick)."`
	CheckCases     int    `name:"check-cases" help:"Test cases whose consistency checks are timed (default 2000)."`
	Seeds          int    `help:"Programs generated per seed-generation run (default 300)."`
	Workers        int    `help:"Workers of the MCP/fuzz campaigns and of seed generation (default: the number of CPUs)."`
	Examples       string `default:"examples/cll" help:"The CLL example directory, relative to the working directory or the module root."`
	Cllc           string `help:"The cllc executable to run as an external command (default: built with go build)." type:"path"`
	Journal        bool   `help:"Let every campaign write its journal to a fresh output directory, as mcpt run does."`
	Quick          bool   `help:"Small sizes, for a smoke test."`
	TreePack       string `name:"tree-pack" placeholder:"CONFIG" help:"Also compare a campaign of this pack, whose relations parse seeds into syntax trees, with a bare loop of its transpiler, 1 worker (e.g. examples/thrift/mcpt.yaml)."`
	CPUProfile     string `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile of the whole bench to this file."`
	Memory         bool   `help:"Measure only memory: the peak resident memory of mcpt run child processes of --memory-cases test cases on the example's mcpt.yaml, and of resuming the largest one's journal (about four minutes on 2 idle CPUs)."`
	MemoryCases    []int  `name:"memory-cases" sep:"," placeholder:"N,N" help:"Campaign sizes of --memory, smallest first (default 100000,1000000)."`
	WorkersCompare bool   `name:"workers-compare" help:"Measure only test cases per second with the transpiler run as a command per run against a persistent worker: cllc (examples/cll) and, when installed, tsc (examples/typescript), interleaved pairs of the same seed, and whether both modes give the same findings."`
	CllcCases      int    `name:"cllc-cases" help:"Test cases per cllc campaign of --workers-compare (default 300; 40 with --quick)."`
	TSCases        int    `name:"ts-cases" help:"Test cases per TypeScript campaign of --workers-compare (default 150; 4 with --quick)."`
	TSExamples     string `name:"ts-examples" placeholder:"DIR" help:"The TypeScript example directory of --workers-compare (default: typescript beside the CLL example)."`
	Pack           string `placeholder:"CONFIG" help:"Measure only this pack: test cases per second of its campaigns with 1 and 2 workers against a bare loop that runs its transpiler command on the same inputs with as many workers, and against the same campaigns with the semantic checks of its relations left out (js-shape, dts-probe, go-probe, protobuf-js), interleaved --repeat times (default 3; e.g. examples/protobuf/go/mcpt.yaml)."`
	PackCases      int    `name:"pack-cases" help:"Test cases per campaign of --pack (default 300; 10 with --quick)."`

	RealBugs      bool          `name:"realbugs" help:"Run only the benchmark of real bugs (bench/realbugs): for each bug, its pack against the buggy and the fixed release, each installed by version into a cache (npm, go install), and print whether the bug was found and the findings on the fixed release."`
	Bug           []string      `name:"bug" placeholder:"ID" help:"The bugs of --realbugs to run (repeatable; default all)."`
	RealBugsCases int           `name:"realbugs-cases" help:"Test cases per campaign of --realbugs, one campaign per release (default 300)."`
	RealBugsTime  time.Duration `name:"realbugs-time" help:"Time per campaign of --realbugs (default 10m)."`
	RealBugsRoot  string        `name:"realbugs-root" placeholder:"CHECKOUT" help:"The checkout of mcpt that holds bench/realbugs and the packs (default: the working directory or the module root)."`

	WithoutSemantic bool `name:"without-semantic" help:"With --realbugs, leave the semantic checks out of the packs' relations (js-shape, dts-probe, go-probe, protobuf-js: they pass everything), so that each bug is found by the text checks alone or not at all."`
	BuggyOnly       bool `name:"buggy-only" help:"With --realbugs, run only the campaigns on the buggy releases (a finding is still run again on the fixed release): whether each bug is found, without the false alarms of the fixed releases."`
	Derived         bool `name:"derived" help:"With --realbugs, run each bug's derived configuration (derived: in its bug.yaml: relations that predict no line of the output by hand) in place of its pack; a bug whose pack has none is a row that says so."`
}

func (c *benchCmd) Run(tools *setup.Tools) error {
	if !c.RealBugs && (c.WithoutSemantic || c.BuggyOnly || c.Derived) {
		return usageErr("--without-semantic, --buggy-only and --derived go with --realbugs (--pack measures with and without the semantic checks by itself)")
	}
	if c.RealBugs {
		return c.realBugs(tools)
	}
	if c.Pack != "" {
		ctx, stop := interruptible()
		defer stop()
		res, err := bench.Pack(ctx, bench.PackOptions{Config: c.Pack, Tools: tools, Cases: c.PackCases, Repeat: c.Repeat, Quick: c.Quick, Log: os.Stderr})
		if err != nil {
			return err
		}
		if err := res.WriteTable(os.Stdout); err != nil {
			return err
		}
		return writeJSON(c.JSON, res)
	}
	ex, err := bench.FindExamples(c.Examples)
	if err != nil {
		return usageErr("%v", err)
	}
	if c.JSON != "" {
		// Fail now rather than after minutes of measuring.
		f, err := os.CreateTemp(filepath.Dir(c.JSON), "."+filepath.Base(c.JSON)+".probe*")
		if err != nil {
			return usageErr("cannot write %s: %v", c.JSON, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	ctx, stop := interruptible()
	defer stop()
	if c.Memory {
		return c.memory(ctx, ex)
	}
	if c.WorkersCompare {
		return c.workers(ctx, ex, tools)
	}
	res, err := bench.Run(ctx, bench.Options{
		Examples: ex, Cllc: c.Cllc, Cases: c.Cases, ExecCases: c.ExecCases, Repeat: c.Repeat, CheckCases: c.CheckCases,
		SeedPrograms: c.Seeds, Workers: c.Workers, Journal: c.Journal, Quick: c.Quick, Log: os.Stderr,
		TreePack: c.TreePack, Tools: tools,
	})
	if err != nil {
		return err
	}
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	if c.JSON == "" {
		return nil
	}
	// Written whole or not at all: a JSON file that compares runs must not
	// be left half-written by a full disk or an interrupt.
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		return err
	}
	if err := result.WriteFileAtomic(c.JSON, b.Bytes()); err != nil {
		return fmt.Errorf("writing %s: %w", c.JSON, err)
	}
	return nil
}

// workers runs the comparison of exec per run against persistent workers;
// the TypeScript example is the typescript directory beside the CLL one.
func (c *benchCmd) workers(ctx context.Context, examples string, tools *setup.Tools) error {
	ts := c.TSExamples
	if ts == "" {
		ts = filepath.Join(filepath.Dir(examples), "typescript")
	}
	res, err := bench.Workers(ctx, bench.WorkersOptions{
		CllExamples: examples, TSExamples: ts,
		Cllc: c.Cllc, CllcCases: c.CllcCases, TSCases: c.TSCases, Repeat: c.Repeat,
		Workers: c.Workers, Quick: c.Quick, Log: os.Stderr, Tools: tools,
	})
	if err != nil {
		return err
	}
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	return writeJSON(c.JSON, res)
}

// writeJSON writes v as indented JSON to file, whole or not at all; an
// empty file means none.
func writeJSON(file string, v any) error {
	if file == "" {
		return nil
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := result.WriteFileAtomic(file, append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}

// memory runs the memory measure, each campaign a child process of this
// executable.
func (c *benchCmd) memory(ctx context.Context, examples string) error {
	self := os.Args[0]
	if !strings.ContainsRune(self, filepath.Separator) {
		p, err := exec.LookPath(self)
		if err != nil {
			return err
		}
		self = p
	}
	res, err := bench.Memory(ctx, bench.MemoryOptions{
		Mcpt: self, Config: filepath.Join(examples, "mcpt.yaml"), Cases: c.MemoryCases, Log: os.Stderr,
	})
	if err != nil {
		return err
	}
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	return writeJSON(c.JSON, res)
}

// realBugs runs the benchmark of real bugs.
func (c *benchCmd) realBugs(tools *setup.Tools) error {
	root := c.RealBugsRoot
	if root == "" {
		root = "."
		if _, err := os.Stat(filepath.Join(root, "bench", "realbugs", "bugs")); err != nil {
			if root, err = bench.ModuleRoot("."); err != nil {
				return usageErr("%v", realbugs.ErrNoRoot)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "bench", "realbugs", "bugs")); err != nil {
		return usageErr("%v", realbugs.ErrNoRoot)
	}
	dir, err := realbugs.DefaultCacheDir()
	if err != nil {
		return usageErr("%v", err)
	}
	ctx, stop := interruptible()
	defer stop()
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "realbugs: "+format+"\n", args...) }
	rows, err := realbugs.Run(ctx, realbugs.Options{
		Root: root, IDs: c.Bug, MaxCases: c.RealBugsCases, MaxTime: c.RealBugsTime, Seed: 1, Workers: 1,
		WithoutSemantic: c.WithoutSemantic, BuggyOnly: c.BuggyOnly, Derived: c.Derived,
		Tools: tools, Cache: &realbugs.Cache{Dir: dir, Log: logf}, Log: os.Stderr,
	})
	if ub := (realbugs.UnknownBugError{}); errors.As(err, &ub) {
		return usageErr("%v", err)
	}
	if err != nil && len(rows) == 0 {
		return err
	}
	if werr := realbugs.WriteTable(os.Stdout, rows); werr != nil {
		return werr
	}
	if jerr := writeJSON(c.JSON, rows); jerr != nil {
		return jerr
	}
	return err
}

// startCPUProfile starts a CPU profile of mcpt written to path (a usage
// error when it cannot be created); stop ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, usageErr("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, usageErr("--cpuprofile: %v", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
