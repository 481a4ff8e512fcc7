// Package setup turns a configuration file into what the engine needs: the
// transpiler under test, the relations and the seeds. Every command that
// reads mcpt.yaml goes through it.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/inputfile"
	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/snapshot"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// Tools are what a build of mcpt offers a configuration besides the files
// it names: the relations written in Go, which it names under
// relations.go, and builtin transpilers of the build's own, which it names
// under transpiler.builtin. A nil *Tools offers none.
type Tools struct {
	GoRelations relation.Registry
	Builtins    transpiler.BuiltinSet
	// CheckerKinds are the checker kinds written in Go that relation
	// files may use besides yamlrel's.
	CheckerKinds []yamlrel.CheckerKind
	// Parsers are the parsers linked into the build that relation files
	// and seeds may name besides mcpt's own grammars (syntax/lang's
	// Builtin): the tree-sitter TypeScript grammar of an mcpt built with
	// -tags typescript.
	Parsers syntax.Parsers
	// Invocation is how the commands that bundles record start this
	// mcpt; "" is "mcpt".
	Invocation string
}

// Spec is the configured transpiler as a recipe records it and the
// fingerprint hashes it: the working directory of a command, a worker or
// a service absolute (the same from any directory), none for a builtin.
func (s *Setup) Spec() (spec.Spec, error) {
	sp := s.Config.Transpiler.Spec
	if sp.Kind == spec.Builtin {
		sp.Dir = ""
		return sp, nil
	}
	dir, err := filepath.Abs(sp.Dir)
	if err != nil {
		return sp, err
	}
	sp.Dir = dir
	return sp, nil
}

// checkerKinds are the checker kinds of t; nil offers none.
func (t *Tools) checkerKinds() []yamlrel.CheckerKind {
	if t == nil {
		return nil
	}
	return t.CheckerKinds
}

// linked are the parsers of t; nil offers none.
func (t *Tools) linked() *syntax.Parsers {
	if t == nil {
		return nil
	}
	return &t.Parsers
}

// AllParsers are the parsers a configuration may name: mcpt's own
// grammars and t's; two of one name are an error.
func (t *Tools) AllParsers() (*syntax.Parsers, error) { return lang.With(t.linked()) }

// loadOptions are the options of loading relation files with t, with the
// configuration's generic words and warn (when not nil).
func (t *Tools) loadOptions(cfg *config.Config, warn func(string)) yamlrel.Options {
	return yamlrel.Options{Generic: cfg.Signature.Generic, Warn: warn, CheckerKinds: t.checkerKinds(), Parsers: t.linked()}
}

// goRelations returns the relations written in Go, none for nil.
func (t *Tools) goRelations() *relation.Registry {
	if t == nil {
		return &relation.Registry{}
	}
	return &t.GoRelations
}

// Setup is a loaded configuration.
type Setup struct {
	Config *config.Config
	// Files are the campaign's input files as Load read them: the
	// configuration, the relation files and what they include, the seeds
	// and the grammar; nil for a setup made from a recipe.
	Files *snapshot.Files
	// rd read Files; a Load given this setup as Options.Snapshot reads
	// through it. Nil for a setup made from a recipe.
	rd *snapshot.Reader
	// relationFiles are the paths in Files of the relation files the
	// configuration names; seedFiles the seeds and grammar, which a
	// recipe leaves out (a bundle holds its seed).
	relationFiles []string
	seedFiles     map[string]bool
	Transpiler    transpiler.Transpiler
	Relations     []*relation.Relation
	Seeds         []engine.Seed
	Normalize     oracle.Normalizer
	// Flags are the configuration's flags, restricted to the values
	// Options.Flags names.
	Flags matrix.Matrix
	// Release is the transpiler's release as its version command prints
	// it; "" when it has none or it was not run (ReadRelease).
	Release string
	// Inferred is what a campaign without relation files inferred (its
	// relations are those of Inferred.Pack); nil for one with relation
	// files.
	Inferred *Inferred
	// Notes say what Load changed of the campaign that the user should
	// know: the flag values left out because the release does not take
	// them (CheckSupports).
	Notes []string
}

// Style is what the configuration says of the transpiler's names, for
// the signatures of findings.
func (s *Setup) Style() result.Style { return result.Style(s.Config.Signature) }

// ConfigError marks errors in what the user gave (configuration, relations,
// seeds), as opposed to a failure of the machine.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

func cfgErr(err error) error {
	if err == nil {
		return nil
	}
	return &ConfigError{Err: err}
}

// Options change what Load does.
type Options struct {
	// Faults, when set, replace the builtin transpiler's faults.
	Faults []string
	// SeedFiles, when set, replace the configured seeds.
	SeedFiles []string
	// Seeds, when set, replace the configured seeds and SeedFiles with
	// seeds read already (the base input of a bundle archive).
	Seeds []engine.Seed
	// Edit, when set, changes the configuration once it is read and
	// before anything it names is loaded (the bench points the transpiler
	// command at the executable it built).
	Edit func(cfg *config.Config) error
	// Tools are the Go relations and builtin transpilers the
	// configuration may name; nil offers none.
	Tools *Tools
	// Warn, when set, is given each warning of reading the relation
	// files (yamlrel.Options.Warn).
	Warn func(warning string)
	// Flags, when set, keep of each flag dimension they name the values
	// they name (--flags DIMENSION=VALUE, or several joined by commas).
	Flags []string
	// NoRelease leaves the transpiler's version command unrun: the
	// release is not known, and the releases the relation packs support
	// are not checked.
	NoRelease bool
	// Log, when set, is told what inferring the relations of a campaign
	// without relation files does, a line at a time.
	Log func(string)
	// Context, when set, stops inference (which runs the transpiler).
	Context context.Context
	// Inline, when set, is the configuration, named path: one made
	// from the command line, read from no file.
	Inline []byte
	// Skip leaves parts of the campaign unloaded, for the commands that
	// need only some of what the configuration names.
	Skip Parts
	// Snapshot, when set, is a setup an earlier Load made: this Load reads
	// its files through the same snapshot, so that a file the earlier one
	// read is not read from disk again (a command that loads the campaign
	// more than once, with other tools or another transpiler, runs each on
	// the same inputs: mcpt bench). Loads that share a snapshot run one
	// at a time.
	Snapshot *Setup
}

// Parts are parts of a campaign that Load may leave out (Options.Skip).
type Parts uint8

const (
	// SkipTranspiler leaves the transpiler unmade: mcpt experiment runs
	// an instrumented build of it instead, and the program the
	// configuration names need not be installed. Setup.Transpiler is nil.
	SkipTranspiler Parts = 1 << iota
	// SkipRelations leaves the relation files unread (mcpt seeds
	// --accept needs the transpiler alone).
	SkipRelations
	// SkipSeeds leaves the seeds and the grammar unread.
	SkipSeeds
)

// Load reads the configuration at path and everything it names, each file
// once, into s.Files, and builds the campaign from what it read. Seeds
// are named by their path in s.Files. Every command that reads a
// configuration reads it here, mcpt run as mcpt experiment, seeds and
// bench.
func Load(path string, opt Options) (*Setup, error) {
	rd := snapshot.NewReader()
	if opt.Snapshot != nil {
		if opt.Snapshot.rd == nil {
			return nil, errors.New("a setup made from a recipe has no snapshot to load through")
		}
		rd = opt.Snapshot.rd
	}
	if opt.Inline != nil {
		if err := rd.Put(path, opt.Inline); err != nil {
			return nil, err
		}
	}
	data, err := rd.Read(path)
	if err != nil {
		return nil, cfgErr(fmt.Errorf("cannot read configuration: %w", err))
	}
	// Every mistake of the configuration and of the relation files is
	// reported at once: the relations are read even when the
	// configuration has errors, if it could be read to the end.
	cfg, errs := config.ParseAll(path, data)
	if cfg == nil {
		return nil, cfgErr(errs.Err())
	}
	if opt.Edit != nil && len(errs) == 0 {
		if err := opt.Edit(cfg); err != nil {
			return nil, cfgErr(err)
		}
	}
	s := &Setup{Config: cfg, rd: rd}
	if len(errs) == 0 && opt.Skip&SkipTranspiler == 0 {
		s.Transpiler, err = opt.Tools.Transpiler(cfg, opt.Faults)
		errs.AddError(err)
	}
	if opt.Skip&SkipRelations == 0 && !cfg.ZeroConfig() {
		s.Relations, err = opt.Tools.relations(cfg, rd, opt.Warn)
		errs.AddError(err)
	}
	if err := errs.Err(); err != nil {
		if s.Transpiler != nil {
			s.Close()
		}
		return nil, cfgErr(err)
	}
	if opt.Skip&SkipSeeds != 0 {
		s.Files = rd.Files()
	} else if err := s.loadSeeds(rd, opt.SeedFiles, opt.Seeds); err != nil {
		s.Close()
		return nil, cfgErr(err)
	}
	s.Normalize = cfg.Normalize
	if err := s.takeFlags(opt.Flags); err != nil {
		s.Close()
		return nil, err
	}
	if !opt.NoRelease {
		if err := s.ReadRelease(context.Background()); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.CheckSupports(!opt.NoRelease); err != nil {
		s.Close()
		return nil, err
	}
	if cfg.ZeroConfig() && opt.Skip&SkipRelations == 0 {
		if s.Transpiler == nil {
			s.Close()
			return nil, cfgErr(errors.New("a campaign without relation files infers them by running the transpiler, which this command does not run: write them first with mcpt infer, and name them under relations"))
		}
		ctx := opt.Context
		if ctx == nil {
			ctx = context.Background()
		}
		if err := s.inferRelations(ctx, rd, opt); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// loadSeeds reads the configured seeds and grammar through rd, or the
// seed files given instead, and takes the snapshot of what rd read. The
// configured seeds are named by their path in the snapshot, seeds given
// instead as written.
func (s *Setup) loadSeeds(rd *snapshot.Reader, instead []string, given []engine.Seed) error {
	cfg := s.Config
	if len(instead) > 0 || len(given) > 0 {
		seeds, err := given, CheckSeeds(given)
		if len(given) == 0 {
			seeds, err = ReadSeeds(instead)
		}
		s.Seeds, s.Files = seeds, rd.Files()
		for _, f := range cfg.Relations.Files {
			s.relationFiles = append(s.relationFiles, rd.Rel(f))
		}
		return err
	}
	var errs []error
	var read []string
	for _, f := range cfg.Seeds.Files {
		b, err := rd.Read(f)
		if err != nil {
			err = fmt.Errorf("seed %s: %w", f, err)
		} else {
			err = checkSeed(f, b)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		read = append(read, f)
	}
	var grammarSrc []byte
	if cfg.Seeds.Grammar != "" {
		b, err := rd.Read(cfg.Seeds.Grammar)
		if err != nil {
			errs = append(errs, fmt.Errorf("grammar %s: %w", cfg.Seeds.Grammar, err))
		}
		grammarSrc = b
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	s.Files, s.seedFiles = rd.Files(), map[string]bool{}
	for _, f := range cfg.Relations.Files {
		s.relationFiles = append(s.relationFiles, rd.Rel(f))
	}
	for _, f := range read {
		b, _ := rd.Read(f)
		s.Seeds = append(s.Seeds, engine.Seed{Name: rd.Rel(f), Src: b})
		s.seedFiles[rd.Rel(f)] = true
	}
	if cfg.Seeds.Grammar != "" {
		s.seedFiles[rd.Rel(cfg.Seeds.Grammar)] = true
		gen, err := generateSeeds(cfg.Seeds, grammarSrc)
		if err != nil {
			return err
		}
		s.Seeds = append(s.Seeds, gen...)
	}
	return nil
}

// Transpiler builds the configured transpiler, a builtin one among t's
// builtins; faults, when not nil, replace a
// builtin's (the --fault flags).
func (t *Tools) Transpiler(cfg *config.Config, faults []string) (transpiler.Transpiler, error) {
	tc := cfg.Transpiler
	sp := tc.Spec
	if faults != nil {
		if sp.Kind != spec.Builtin {
			return nil, config.Errorf(tc.Pos, "--fault needs a builtin transpiler")
		}
		sp.Faults = faults
	}
	var builtins transpiler.BuiltinSet
	if t != nil {
		builtins = t.Builtins
	}
	tr, err := transpiler.Open(sp, builtins)
	var uf *transpiler.UnknownFaultError
	if faults != nil && errors.As(err, &uf) {
		// The name came from the command line, not from the file.
		return nil, fmt.Errorf("--fault %s: %v", uf.Name, uf)
	}
	if err != nil && tc.Pos.File == "" {
		return nil, fmt.Errorf("transpiler: %v", err) // a recipe's: no file to point into
	}
	if err != nil {
		return nil, config.Errorf(tc.Pos, "%v", err)
	}
	return tr, nil
}

// relations loads the configured relations (YAML files, read through rd,
// and t's Go relations), restricted to relations.only when it is set,
// giving the warnings of the files to warn (when not nil).
func (t *Tools) relations(cfg *config.Config, rd *snapshot.Reader, warn func(string)) ([]*relation.Relation, error) {
	goRels := t.goRelations()
	var reg relation.Registry
	var errs config.ErrorList
	if len(cfg.Relations.Files) > 0 {
		var names []string
		for _, f := range cfg.Relations.Files {
			name, err := rd.FSName(f)
			errs.AddError(err)
			if err == nil {
				names = append(names, name)
			}
		}
		rels, err := yamlrel.LoadWith(t.loadOptions(cfg, warn), rd.FS(), names...)
		errs.AddError(err)
		for _, r := range rels {
			errs.AddError(reg.Add(r))
		}
	}
	// Without every relation file, a name that relations.only gives may
	// be one of a file in error.
	allFiles := len(errs) == 0
	for _, name := range cfg.Relations.Go {
		r := goRels.Lookup(name.Value)
		if r == nil {
			errs.Add(name.At("no Go relation named %q in this build of mcpt%s; a relation written in Go runs in the mcpt program built with it (docs/library.md), "+
				"e.g. go run ./examples/cll/gorel/mcpt for the CLL example's add-actuator-command-go", name.Value, suggest.DidYouMean(name.Value, goRels.Names())))
			continue
		}
		if err := reg.Add(r); err != nil {
			errs.Add(name.At("%v", err))
		}
	}
	only := make([]string, len(cfg.Relations.Only))
	for i, name := range cfg.Relations.Only {
		only[i] = name.Value
		if allFiles && reg.Lookup(name.Value) == nil {
			errs.Add(name.At("relations.only: no relation named %q%s", name.Value, suggest.DidYouMean(name.Value, reg.Names())))
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return reg.Select(only)
}

// ReadSeeds reads seed files. A file that cannot be read or is not UTF-8 is
// an error naming it.
func ReadSeeds(files []string) ([]engine.Seed, error) {
	var seeds []engine.Seed
	var errs []error
	for _, f := range files {
		b, err := inputfile.Read(f)
		if err != nil {
			err = fmt.Errorf("seed %s: %w", f, err)
		} else {
			err = checkSeed(f, b)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seeds = append(seeds, engine.Seed{Name: filepath.ToSlash(f), Src: b})
	}
	return seeds, errors.Join(errs...)
}

// CheckSeeds says why the seeds given with their content are no seeds
// (one is not UTF-8), as ReadSeeds checks the seeds it reads.
func CheckSeeds(seeds []engine.Seed) error {
	var errs []error
	for _, sd := range seeds {
		if err := checkSeed(sd.Name, sd.Src); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkSeed says why the content b of the seed file f is no seed (it is
// not UTF-8), nil when it is one.
func checkSeed(f string, b []byte) error {
	if !utf8.Valid(b) {
		line, col := invalidUTF8(b)
		return fmt.Errorf("%s:%d:%d: seed is not valid UTF-8", f, line, col)
	}
	return nil
}

func invalidUTF8(b []byte) (line, col int) {
	line, col = 1, 1
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		b = b[n:]
	}
	return line, col
}

// ReadFile reads an input file a command names besides its configuration
// (mcpt experiment --sample) as Load reads those the configuration names:
// through the snapshot of through, when not nil, so that a file Load read
// is not read again.
func ReadFile(path string, through *Setup) ([]byte, error) {
	rd := snapshot.NewReader()
	if through != nil && through.rd != nil {
		rd = through.rd
	}
	return rd.Read(path)
}

// ReadGrammar reads the grammar file at path as Load reads a
// configuration's grammar, and parses it: mcpt seeds -g and the bench. It
// reads through the snapshot of through, when not nil, as a Load given it
// as Options.Snapshot does.
func ReadGrammar(path string, through *Setup) (*grammar.Grammar, error) {
	src, err := ReadFile(path, through)
	if err != nil {
		return nil, err
	}
	return grammar.Parse(path, src)
}

// generateSeeds is GenerateSeeds from the grammar's source src.
func generateSeeds(s config.Seeds, src []byte) ([]engine.Seed, error) {
	g, err := grammar.Parse(s.Grammar, src)
	if err != nil {
		return nil, err
	}
	b, err := grammar.Generate(g, grammar.Options{N: s.Count, Seed: s.Seed})
	if err != nil {
		return nil, err
	}
	if why := b.Shortfall(); why != "" {
		return nil, config.Errorf(s.Pos, "seeds: %s derives no program: %s", filepath.Base(s.Grammar), why)
	}
	seeds := make([]engine.Seed, len(b.Programs))
	base := filepath.Base(s.Grammar)
	for i, p := range b.Programs {
		seeds[i] = engine.Seed{Name: fmt.Sprintf("%s/seed-%04d.%s", base, i+1, s.Extension), Src: p.Source}
	}
	return seeds, nil
}

// EngineOptions are the options of a campaign on s as the configuration
// sets them: its budget (one minute of time when it sets none), base runs
// and normalisation rules, with the engine's defaults for the rest.
func (s *Setup) EngineOptions() engine.Options {
	b := s.Config.Budget
	opt := engine.Options{
		Mode: engine.MCP, Seed: 1, MaxTime: b.MaxTime, MaxCases: b.MaxCases,
		MaxMR: b.MaxMR, MaxSpots: b.MaxSpots, BaseRuns: s.Config.BaseRuns, ConfirmRuns: s.Config.ConfirmRuns,
		BundlesPerGroup: s.Config.BundlesPerGroup, CountUnconfirmed: s.Config.CountUnconfirmed, ConfirmCounted: s.Config.ConfirmCounted, Exhaustive: b.Exhaustive,
		Normalize: s.Normalize, Config: s.Config.File, Style: s.Style(), Flags: s.Flags, Release: s.Release,
	}
	if opt.MaxTime == 0 && opt.MaxCases == 0 {
		opt.MaxTime = time.Minute
	}
	return opt
}

// Close stops what the transpiler keeps running between runs (the
// processes of a persistent worker).
func (s *Setup) Close() error {
	if c, ok := s.Transpiler.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Relation returns the loaded relation named name, or nil.
func (s *Setup) Relation(name string) *relation.Relation {
	for _, r := range s.Relations {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// FindRelation returns the loaded relation named name; the error for an
// unknown name suggests the closest one.
func (s *Setup) FindRelation(name string) (*relation.Relation, error) {
	if r := s.Relation(name); r != nil {
		return r, nil
	}
	names := make([]string, len(s.Relations))
	for i, r := range s.Relations {
		names[i] = r.Name
	}
	return nil, fmt.Errorf("no relation named %q in %s%s", name, s.Config.File, suggest.DidYouMean(name, names))
}

// Fingerprint names what of the configuration decides a campaign's results,
// for the journal (engine.Options.Fingerprint): the content of each input
// file Load read (configuration, relation files and what they include,
// seeds, grammar), by its path in s.Files, and the transpiler. The engine
// fingerprints the seeds' content and its options itself.
func (s *Setup) Fingerprint() (map[string]string, error) {
	if s.Files == nil {
		return nil, errors.New("a setup made from a recipe has no input files to fingerprint")
	}
	fp := map[string]string{}
	for name, h := range s.Files.Hashes() {
		fp["input "+name] = h
	}
	sp, err := s.Spec()
	if err != nil {
		return nil, err
	}
	fp["transpiler"] = sp.Fingerprint()
	return fp, nil
}
