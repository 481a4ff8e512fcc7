// Package mcpt is mcpt as a Go library. Main runs the whole mcpt command
// line with relations written in Go and builtin transpilers of a program's
// own, in the way golang.org/x/tools/go/analysis/multichecker runs a set of
// analyzers:
//
//	func main() { mcpt.Main(mcpt.Relations(myrel.New())) }
//
// builds an mcpt whose configurations can name the relation under
// relations.go. Load turns a configuration into a Campaign that runs from
// Go.
//
// A relation is a relation.Relation value; package relation/yamlrel loads
// relations declared in YAML, and package relationtest tests a relation on
// archives of inputs, follow-ups and broken outputs.
package mcpt

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/cli"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// An Option adds relations, checker kinds or parsers written in Go, or
// builtin transpilers, to what configurations can name.
type Option struct {
	apply func(*setup.Tools) error
}

// Relations makes relations written in Go available to configurations,
// which name them under relations.go. Two relations with the same name are
// an error.
func Relations(rels ...*relation.Relation) Option {
	return Option{func(t *setup.Tools) error {
		for _, r := range rels {
			if err := t.GoRelations.Add(r); err != nil {
				return err
			}
		}
		return nil
	}}
}

// Checkers makes checker kinds written in Go available to relation files,
// which name a kind by its key in a check (`- protobuf-descriptor: {…}`),
// as they name yamlrel's own kinds. Two kinds with the same name are an
// error when the relation files load.
func Checkers(kinds ...yamlrel.CheckerKind) Option {
	return Option{func(t *setup.Tools) error {
		t.CheckerKinds = append(t.CheckerKinds, kinds...)
		return nil
	}}
}

// Parsers makes parsers written in Go available to relation files, which
// name one by its name (`syntax: typescript` names the parser whose Lang
// is "typescript"), and to campaigns without relation files, whose seeds'
// extension names the parser of a language mcpt knows (docs/zeroconfig.md):
// mcpt.Parsers(typescript.Parser) offers the tree-sitter TypeScript
// grammar of package syntax/tsgrammar/typescript. mcpt's own grammars
// (thrift, flatbuffers, protobuf, cll) are always offered; a parser named
// as one of them, or two parsers of one name, are an error.
func Parsers(ps ...syntax.Parser) Option {
	return Option{func(t *setup.Tools) error {
		return t.Parsers.Add(ps...)
	}}
}

// Builtin makes a transpiler run in process available to configurations,
// which name it under transpiler.builtin; factory makes it from the options
// and faults the configuration gives. It is the only way a builtin
// transpiler reaches configurations: mcpt.Builtin(cllc.Name, cllc.New)
// offers the CLL example's.
func Builtin(name string, factory transpiler.BuiltinFactory) Option {
	return Option{func(t *setup.Tools) error {
		if name == "" || factory == nil {
			return fmt.Errorf("builtin transpiler %q: needs a name and a factory", name)
		}
		if _, dup := t.Builtins[name]; dup {
			return fmt.Errorf("builtin transpiler %s given twice", name)
		}
		if t.Builtins == nil {
			t.Builtins = map[string]transpiler.BuiltinFactory{}
		}
		t.Builtins[name] = factory
		return nil
	}}
}

func tools(opts []Option) (*setup.Tools, error) {
	t := &setup.Tools{}
	for _, o := range opts {
		if err := o.apply(t); err != nil {
			return nil, err
		}
	}
	if _, err := t.AllParsers(); err != nil {
		return nil, err
	}
	return t, nil
}

// Main runs mcpt's command line (every command of mcpt: run, validate,
// spots, repro, reduce, …) on the arguments of the process, with the
// relations and builtin transpilers the options add, and exits with mcpt's
// exit status. Options that contradict each other (two relations of one
// name) exit with status 2.
func Main(opts ...Option) {
	t, err := tools(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpt:", err)
		os.Exit(2)
	}
	os.Exit(cli.Main(t))
}

// Campaign is a configuration loaded and ready to run, as `mcpt run -c`
// runs it: the transpiler under test, the relations and the seeds the
// configuration names, and the options of the engine it sets (its budget,
// one minute of time when it sets none; base runs; normalisation rules),
// with seed 1 and no output directory. Change Options before Run to run it
// otherwise.
type Campaign struct {
	engine.Campaign
	// Config is the configuration, as read.
	Config *config.Config

	setup *setup.Setup
}

// Load reads the configuration file at path and everything it names, with
// the relations and builtin transpilers the options add. Mistakes in what
// it reads are reported as file:line:col: message. The campaign's
// transpiler may keep processes running (a persistent worker): Close it.
func Load(path string, opts ...Option) (*Campaign, error) {
	t, err := tools(opts)
	if err != nil {
		return nil, err
	}
	s, err := setup.Load(path, setup.Options{Tools: t})
	if err != nil {
		return nil, err
	}
	return &Campaign{
		Campaign: engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: s.EngineOptions()},
		Config:   s.Config,
		setup:    s,
	}, nil
}

// Run runs the campaign until its budget is spent or ctx is cancelled and
// returns its report; the error says why the campaign itself broke, and
// findings are no error. With Options.OutDir set, the finding bundles and
// the journal are written there, and a bundle records what `mcpt repro`
// needs to run its finding again.
func (c *Campaign) Run(ctx context.Context) (*result.Report, error) {
	if c.Options.OutDir != "" {
		if c.Options.Recipe == nil {
			r, err := c.setup.Recipe(c.Options.Seed, c.Options.Faults)
			if err != nil {
				return nil, err
			}
			c.Options.Recipe = r
		}
		if c.Options.Fingerprint == nil {
			fp, err := c.setup.Fingerprint()
			if err != nil {
				return nil, err
			}
			c.Options.Fingerprint = fp
		}
	}
	return c.Campaign.Run(ctx)
}

// Close stops what the transpiler keeps running between runs (the
// processes of a persistent worker).
func (c *Campaign) Close() error { return c.setup.Close() }
