package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler"
)

type seedsCmd struct {
	Grammar   string `short:"g" required:"" help:"Grammar file."`
	N         int    `short:"n" default:"100" help:"Number of programs."`
	Seed      uint64 `default:"1" help:"Seed of the generator: the same seed gives the same programs."`
	Out       string `short:"o" required:"" help:"Directory for the programs (seed-0001.EXT, …)."`
	Extension string `default:"txt" help:"Extension of the program files."`
	Accept    bool   `help:"Keep only programs the configured transpiler accepts."`
	Config    string `short:"c" default:"mcpt.yaml" help:"Configuration naming the transpiler (with --accept)."`
	Workers   int    `help:"Parallel workers (default: the number of CPUs)."`
}

func (c *seedsCmd) Run() error {
	if c.N <= 0 {
		return usageErr("-n must be positive")
	}
	g, err := grammar.ParseFile(c.Grammar)
	if err != nil {
		return &setup.ConfigError{Err: err}
	}
	for _, w := range g.Warnings() {
		fmt.Fprintln(os.Stderr, w)
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	opt := grammar.Options{N: c.N, Seed: c.Seed, Workers: workers}
	if c.Accept {
		if err := configExists(c.Config); err != nil {
			return err
		}
		cfg, err := config.Load(c.Config)
		if err != nil {
			return &setup.ConfigError{Err: err}
		}
		t, err := setup.Transpiler(cfg, nil)
		if err != nil {
			return &setup.ConfigError{Err: err}
		}
		opt.Accept = acceptor(t, c.Extension)
	}
	start := time.Now()
	b, err := grammar.Generate(g, opt)
	if err != nil {
		return err
	}
	paths, err := b.WriteDir(c.Out, c.Extension)
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Printf("%d programs in %s\n", len(paths), c.Out)
	fmt.Printf("yield: %d accepted / %d generated (%.1f%%); %d failed, %d duplicates dropped, %d rejected\n",
		b.Accepted, b.Generated, 100*float64(b.Accepted)/float64(max(1, b.Generated)), b.Failed, b.Duplicates, b.Rejected)
	fmt.Printf("rate: %.0f accepted programs/s (%.2fs)\n", float64(b.Accepted)/el.Seconds(), el.Seconds())
	fmt.Printf("coverage: %d/%d alternatives\n", b.Coverage.Used, b.Coverage.Total)
	for _, u := range b.Coverage.Unused {
		fmt.Printf("  unused: %s\n", u)
	}
	return nil
}

// acceptor runs the transpiler on a program and keeps it when accepted.
func acceptor(t transpiler.Transpiler, ext string) func([]byte) bool {
	return func(src []byte) bool {
		res, err := t.Transpile(context.Background(), transpiler.Request{Name: "seed." + ext, Src: src, Role: transpiler.Base})
		return err == nil && res.Status == transpiler.Accepted
	}
}
