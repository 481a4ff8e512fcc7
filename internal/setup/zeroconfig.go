package setup

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/infer"
	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/snapshot"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
)

// InferredDir is the directory, beside the configuration, under which a
// campaign without relation files names the relation files it infers.
// Nothing is written there: the files live in the campaign's snapshot (its
// recipes and fingerprint hold them); `mcpt infer` writes them.
const InferredDir = ".mcpt-inferred"

// language is the parser of a zero-config campaign's seeds: the grammar
// or parser the configuration names (syntax:), else the language of the
// seeds' extension. syntaxRef is how relation files in dir name it.
func (s *Setup) language(rd *snapshot.Reader, dir string, parsers *syntax.Parsers) (p syntax.Parser, syntaxRef, numbers string, err error) {
	cfg := s.Config
	switch {
	case strings.HasSuffix(cfg.Syntax, ".grammar"):
		src, err := rd.Read(cfg.Syntax)
		if err != nil {
			return nil, "", "", cfgErr(errorAt(cfg, fmt.Errorf("syntax: %v", err)))
		}
		g, err := grammar.Parse(cfg.Syntax, src)
		if err != nil {
			return nil, "", "", cfgErr(errorAt(cfg, fmt.Errorf("syntax: %v", err)))
		}
		rel, err := filepath.Rel(dir, cfg.Syntax)
		if err != nil {
			rel = cfg.Syntax
		}
		return grammar.NewParser(g), filepath.ToSlash(rel), "c", nil
	case cfg.Syntax != "":
		numbers = "c"
		if l, ok := lang.Named(cfg.Syntax); ok {
			numbers = l.Numbers
		}
		if p, ok := parsers.Lookup(cfg.Syntax); ok {
			return p, cfg.Syntax, numbers, nil
		}
		also := "" // a name of no language mcpt knows: the closest that is
		if _, ok := lang.Named(cfg.Syntax); !ok {
			names := parsers.Names()
			for _, l := range lang.Languages {
				if !slices.Contains(names, l.Name) {
					names = append(names, l.Name)
				}
			}
			also = suggest.DidYouMean(cfg.Syntax, names)
		}
		return nil, "", "", cfgErr(errorAt(cfg, fmt.Errorf("syntax: %v%s", lang.Missing(cfg.Syntax, parsers), also)))
	}
	// By the seeds' extension: one language for all of them.
	var seedLang *lang.Language
	for _, sd := range s.Seeds {
		l, ok := lang.Of(sd.Name)
		if !ok {
			return nil, "", "", cfgErr(fmt.Errorf("%s: mcpt cannot tell the language of this seed by its extension (it knows %s): name a grammar of it (syntax: LANGUAGE.grammar in the configuration, --syntax on the command line; docs/zeroconfig.md), or give relation files",
				sd.Name, lang.Extensions()))
		}
		if seedLang != nil && l.Name != seedLang.Name {
			return nil, "", "", cfgErr(fmt.Errorf("the seeds are of two languages, %s and %s (%s): a campaign without relation files reads one", seedLang.Name, l.Name, sd.Name))
		}
		seedLang = &l
	}
	if seedLang == nil {
		return nil, "", "", cfgErr(errors.New("no seed to infer relations from"))
	}
	if p, err = seedLang.Parser(parsers); err != nil {
		return nil, "", "", cfgErr(seedsError(cfg, fmt.Errorf("seeds of %s (%s): %v", seedLang.Exts[0], s.Seeds[0].Name, err)))
	}
	return p, seedLang.Name, seedLang.Numbers, nil
}

// seedsError places err at the configuration's seeds: key, when a file
// gave it.
func seedsError(cfg *config.Config, err error) error {
	if cfg.Seeds.Pos.File != "" {
		return config.Errorf(cfg.Seeds.Pos, "%v", err)
	}
	return err
}

// errorAt places err at the configuration's syntax: key, when a file
// gave it.
func errorAt(cfg *config.Config, err error) error {
	if cfg.SyntaxPos.File != "" {
		return config.Errorf(cfg.SyntaxPos, "%v", err)
	}
	return err
}

// Inferred is what a zero-config setup inferred: the pack, and where its
// files are named.
type Inferred struct {
	Pack *infer.Pack
	// Files are the relation files, by path (in InferredDir beside the
	// configuration), in load order, and their content.
	Paths []string
	Data  map[string][]byte
	// Unparsed are the seeds the parser does not read.
	Unparsed []error
	// Runs is how many times inference ran the transpiler.
	Runs int
}

// inferRelations infers the relations of a campaign without relation
// files (see package infer), names the files in InferredDir beside the
// configuration in rd, and loads them as relation files are loaded.
func (s *Setup) inferRelations(ctx context.Context, rd *snapshot.Reader, opt Options) error {
	cfg := s.Config
	dir := filepath.Join(cfg.Dir, InferredDir)
	parsers, err := opt.Tools.AllParsers()
	if err != nil {
		return err
	}
	p, ref, numbers, err := s.language(rd, dir, parsers)
	if err != nil {
		return err
	}
	seeds := make([]infer.Seed, len(s.Seeds))
	for i, sd := range s.Seeds {
		seeds[i] = infer.Seed{Name: sd.Name, Src: sd.Src}
	}
	var flags []string
	if combos := s.Flags.Combinations(); len(combos) > 0 {
		flags = combos[0].Args()
	}
	log := opt.Log
	if log == nil {
		log = func(string) {}
	}
	log(fmt.Sprintf("no relation files: inferring relations from %d seeds, read with %s", len(seeds), p.Lang()))
	res, err := infer.Infer(ctx, seeds, infer.Options{
		Syntax: ref, Parser: p, Numbers: numbers, Transpiler: s.Transpiler, Flags: flags,
		Normalize: s.Normalize, Workers: max(1, min(runtime.NumCPU(), 8)), Log: log,
	})
	if err != nil {
		if errors.Is(err, infer.ErrNoList) {
			return cfgErr(err)
		}
		if ctx.Err() != nil {
			return err
		}
		return cfgErr(fmt.Errorf("inferring relations: %w", err))
	}
	names, files := res.Pack.Files()
	inf := &Inferred{Pack: res.Pack, Data: map[string][]byte{}, Unparsed: res.Unparsed, Runs: res.Runs}
	var fsNames []string
	for _, n := range names {
		path := filepath.Join(dir, n)
		rd.Put(path, files[n])
		inf.Paths = append(inf.Paths, path)
		inf.Data[path] = files[n]
		name, err := rd.FSName(path)
		if err != nil {
			return err
		}
		fsNames = append(fsNames, name)
	}
	// The generator's words and forms join the configuration's: the
	// signatures, the recipe and the checks use them; its counters are
	// normalised away.
	h := res.Pack.Habits
	for _, learned := range []func() (oracle.Rule, bool){res.Pack.CounterRule, res.Pack.ColumnsRule} {
		if rule, ok := learned(); ok {
			cfg.Normalize = append(slices.Clone(cfg.Normalize), rule)
			s.Normalize = cfg.Normalize
		}
	}
	cfg.Signature.Generic = mergeWords(cfg.Signature.Generic, h.Generic)
	if len(cfg.Signature.Forms) == 0 {
		cfg.Signature.Forms = slices.DeleteFunc(slices.Clone(h.Forms), func(f string) bool { return f == "upperfirst" || f == "lowerfirst" })
	}
	rels, err := yamlrel.LoadWith(opt.Tools.loadOptions(cfg, opt.Warn), rd.FS(), fsNames...)
	if err != nil {
		return fmt.Errorf("the inferred relations do not load (a bug of mcpt): %w", err)
	}
	var reg relation.Registry
	for _, r := range rels {
		if err := reg.Add(r); err != nil {
			return err
		}
	}
	var only []string
	var errs []error
	for _, name := range cfg.Relations.Only {
		only = append(only, name.Value)
		if reg.Lookup(name.Value) == nil {
			errs = append(errs, name.At("relations.only: no inferred relation named %q%s", name.Value, suggest.DidYouMean(name.Value, reg.Names())))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return cfgErr(err)
	}
	if s.Relations, err = reg.Select(only); err != nil {
		return cfgErr(err)
	}
	if len(s.Relations) == 0 {
		return cfgErr(errors.New("inferring relations: the transpiler rejected the follow-ups of every relation mcpt made (see mcpt infer)"))
	}
	s.Inferred = inf
	s.Files = rd.Files()
	s.relationFiles = nil
	for _, p := range inf.Paths {
		s.relationFiles = append(s.relationFiles, rd.Rel(p))
	}
	return nil
}

// mergeWords is a with the words of b it lacks, in order.
func mergeWords(a, b []string) []string {
	out := slices.Clone(a)
	for _, w := range b {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
