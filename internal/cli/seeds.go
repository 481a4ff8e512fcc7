package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/progress"
	"github.com/mcpt-tool/mcpt/transpiler"
)

type seedsCmd struct {
	Grammar   string `short:"g" required:"" help:"Grammar file."`
	N         int    `short:"n" default:"100" help:"Number of programs."`
	Seed      uint64 `default:"1" help:"Seed of the generator: the same seed gives the same programs."`
	Out       string `short:"o" required:"" help:"Directory for the programs (seed-0001.EXT, …); it must not exist or be empty."`
	Force     bool   `help:"Replace the programs an earlier mcpt seeds wrote in OUT (seed-NNNN.EXT files); OUT must hold nothing else."`
	Extension string `help:"Extension of the program files (default: LANG for a grammar named LANG.grammar)."`
	Accept    bool   `help:"Keep only programs the configured transpiler accepts."`
	Config    string `short:"c" default:"mcpt.yaml" help:"Configuration naming the transpiler (with --accept)."`
	Workers   int    `help:"Parallel workers (default: the number of CPUs)."`
	Quiet     bool   `short:"q" help:"Show no progress."`
}

func (c *seedsCmd) Run(tools *setup.Tools) error {
	if c.N <= 0 {
		return usageErr("-n must be positive")
	}
	ext := strings.TrimPrefix(c.Extension, ".")
	if ext == "" {
		ext = config.GrammarExtension(c.Grammar)
	}
	if ext == "" || strings.ContainsAny(ext, `/\`) {
		return usageErr("give the extension of the programs with --extension: %s is not named LANGUAGE.grammar", c.Grammar)
	}
	older, err := olderSeeds(c.Out, c.Force)
	if err != nil {
		return err
	}
	var s *setup.Setup
	if c.Accept {
		if err := configExists(c.Config); err != nil {
			return err
		}
		// The configuration as mcpt run reads it, for its transpiler
		// alone; the grammar is read through the same snapshot.
		if s, err = setup.Load(c.Config, setup.Options{Tools: tools, Skip: setup.SkipRelations | setup.SkipSeeds, NoRelease: true}); err != nil {
			return err
		}
		defer s.Close()
	}
	g, err := setup.ReadGrammar(c.Grammar, s)
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
	if s != nil {
		opt.Accept = acceptor(s.Transpiler, ext)
	}
	start := time.Now()
	done := func() {}
	if !c.Quiet {
		bar := progress.New(os.Stderr, c.N, 0, progress.Task("seeds", "programs"))
		opt.Progress = func(n int) { bar.Update(n, 0) }
		done = bar.Done
	}
	b, err := grammar.Generate(g, opt)
	done()
	if err != nil {
		return err
	}
	if why := b.Shortfall(); why != "" {
		return &exitError{code: exitBroken, err: fmt.Errorf("wrote no program: %s", why)}
	}
	for _, p := range older {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	paths, err := b.WriteDir(c.Out, ext)
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Printf("%d programs in %s\n", len(paths), c.Out)
	if len(paths) < c.N {
		fmt.Fprintf(os.Stderr, "mcpt: only %d of the %d programs asked for: see the yield\n", len(paths), c.N)
	}
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

// seedFile is the name of a program mcpt seeds writes.
var seedFile = regexp.MustCompile(`^seed-[0-9]{4,}\.[^.]+$`)

// olderSeeds checks that the programs can go into dir without mixing with
// other files: dir must not exist or be empty; with force it may hold the
// programs of an earlier run (returned, to be replaced) and nothing else.
func olderSeeds(dir string, force bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usageErr("%v", err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	if !force {
		return nil, usageErr("%s is not empty: choose another -o, or --force to replace the programs an earlier mcpt seeds wrote there", dir)
	}
	var older, others []string
	for _, e := range entries {
		if e.Type().IsRegular() && seedFile.MatchString(e.Name()) {
			older = append(older, filepath.Join(dir, e.Name()))
		} else {
			others = append(others, e.Name())
		}
	}
	if len(others) > 0 {
		return nil, usageErr("%s holds files mcpt seeds did not write (%s): choose another -o", dir, strings.Join(others[:min(3, len(others))], ", "))
	}
	return older, nil
}
