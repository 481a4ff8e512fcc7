// Package config reads mcpt.yaml, the description of a campaign: the
// transpiler under test, the seeds, the relations and the budget. Decoding
// is strict (unknown keys are errors), every error says file:line:col, and
// one reading reports all of them.
package config

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/inputfile"
	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// The most base_runs and confirm_runs a configuration (or a bundle's
// recipe) may ask for: each is a run of the transpiler per base or per
// failing test case.
const (
	MaxBaseRuns    = 10
	MaxConfirmRuns = 20
)

// Config is a decoded and validated mcpt.yaml. Paths in it are resolved
// against the directory of the file.
type Config struct {
	File       string // the file it was read from, as given
	Dir        string // the directory paths are relative to
	Transpiler Transpiler
	Seeds      Seeds
	Relations  Relations
	Budget     Budget
	// Normalize are the normalisation rules applied to every output file
	// before the checks.
	Normalize oracle.Normalizer
	BaseRuns  int // how many times each base is transpiled to detect nondeterminism (1 = no check)
	// ConfirmRuns is how many times a failing run is run again, each
	// repeating the failure, before it is a finding; 0 is the engine's
	// default.
	ConfirmRuns int
	// BundlesPerGroup is how many findings of each signature group get a
	// bundle and the full confirmation; 0 is the engine's default.
	BundlesPerGroup int
	// CountUnconfirmed is confirm_counted: false: a finding counted in its
	// group is not run again.
	CountUnconfirmed bool
	// ConfirmCounted is confirm_counted's one in n of the counted findings
	// that are run again once (true: 1); 0 is the engine's default.
	ConfirmCounted int
	Signature      Signature
	// Flags is the matrix of the transpiler's flags: each seed runs under
	// each combination of one value per dimension.
	Flags Flags
	// Syntax is the parser of the seeds of a campaign without relation
	// files: a grammar file's path (resolved), or a linked parser's name;
	// "" to take it from the seeds' extension. SyntaxPos is where it was
	// given.
	Syntax    string
	SyntaxPos Pos
}

// Signature says what the transpiler's output makes of the program's names,
// for the signatures that group findings: the case forms in which it
// writes a name (nil: as written, snake, upper snake), and the fixed names
// of the code it generates, which are not names of the program.
type Signature struct {
	Forms   []string
	Generic []string
}

// Transpiler says how to run the transpiler under test: a builtin in
// process, an external command run once per input, a persistent worker,
// or a service reached over HTTP. The spec is what the rest of mcpt sees
// (run, recipe, fingerprint, --trust); Pos is where the section says which
// kind it is, for errors. The working directory is resolved against the
// configuration's directory.
type Transpiler struct {
	spec.Spec
	Pos Pos
	// VersionPos is where the version command was given.
	VersionPos Pos
}

// Seeds names seed files, or a grammar to generate them from.
type Seeds struct {
	Files []string // resolved, sorted, de-duplicated paths
	// Patterns are the patterns of files as given, resolved against the
	// configuration's directory.
	Patterns  []string
	Grammar   string
	Count     int
	Seed      uint64
	Extension string // of generated seeds' names, without the dot
	// Pos is where the seeds are named: the grammar, else the first
	// pattern of files.
	Pos Pos
}

// Relations names relation files and Go relations. Go and Only keep the
// positions of the names, for errors about them.
type Relations struct {
	Files []string
	Go    []String
	Only  []String
	Pos   Pos
}

// Budget bounds a campaign (the paper's max_time, max_mr, max_spots, plus
// max_cases for deterministic runs). Zero means unset; max_time and
// max_cases, when written, must be positive. A campaign given neither, here
// or on the command line, runs for one minute.
type Budget struct {
	MaxTime  time.Duration
	MaxCases int
	MaxMR    int
	MaxSpots int
	// Exhaustive plans without the weights that move a campaign to new
	// groups.
	Exhaustive bool
}

type fileYAML struct {
	Transpiler     *transpilerYAML `yaml:"transpiler"`
	Seeds          *seedsYAML      `yaml:"seeds"`
	Relations      *relationsYAML  `yaml:"relations"`
	Budget         *budgetYAML     `yaml:"budget"`
	Normalize      []ruleYAML      `yaml:"normalize"`
	BaseRuns       *Int            `yaml:"base_runs"`
	Confirm        *Int            `yaml:"confirm_runs"`
	Bundles        *Int            `yaml:"bundles_per_group"`
	ConfirmCounted *confirmCounted `yaml:"confirm_counted"`
	Signature      *signatureYAML  `yaml:"signature"`
	Flags          *flagsYAML      `yaml:"flags"`
	Syntax         *String         `yaml:"syntax"`
}

type signatureYAML struct {
	Forms   []String `yaml:"forms"`
	Generic []String `yaml:"generic"`
}

type seedsYAML struct {
	Files     []String `yaml:"files"`
	Grammar   *String  `yaml:"grammar"`
	Count     *Int     `yaml:"count"`
	Seed      uint64   `yaml:"seed"`
	Extension *String  `yaml:"extension"`
}

type relationsYAML struct {
	Files []String `yaml:"files"`
	Go    []String `yaml:"go"`
	Only  []String `yaml:"only"`
}

type budgetYAML struct {
	MaxTime  *String `yaml:"max_time"`
	MaxCases *Int    `yaml:"max_cases"`
	MaxMR    *Int    `yaml:"max_mr"`
	MaxSpots *Int    `yaml:"max_spots"`
	// Exhaustive is a plain bool: a value of another kind is a decoding
	// error at its place.
	Exhaustive bool `yaml:"exhaustive"`
}

type ruleYAML struct {
	Files   []String `yaml:"files"`
	Match   String   `yaml:"match"`
	Replace *String  `yaml:"replace"`
}

// Load reads and validates a configuration file.
func Load(path string) (*Config, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read configuration: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates configuration data read from path. It
// reports every error it finds, as an ErrorList in the order of the file.
func Parse(path string, data []byte) (*Config, error) {
	c, errs := ParseAll(path, data)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// ParseAll is Parse that returns the configuration with its errors: every
// unknown key, key given twice, value of the wrong type and value out of
// bounds, so that the caller can check what the configuration names (the
// relations, say) and report all of it at once. The configuration is nil
// when the file could not be decoded to the end (it is no YAML, say); a
// value in error is left at its default.
func ParseAll(path string, data []byte) (*Config, ErrorList) {
	var y fileYAML
	decodeErrs, ok := yamlpos.DecodeAll(path, data, &y)
	if !ok {
		return nil, decodeErrs
	}
	c := &Config{File: path, Dir: filepath.Dir(path), BaseRuns: 2}
	var errs ErrorList
	top := Pos{File: path, Line: 1, Col: 1}
	if y.Transpiler == nil {
		errs.Add(Errorf(top, "missing transpiler section"))
	} else {
		c.transpiler(y.Transpiler, &errs)
	}
	if y.Seeds == nil {
		errs.Add(Errorf(top, "missing seeds section"))
	} else {
		c.seeds(y.Seeds, &errs)
	}
	if y.Relations != nil {
		c.relations(y.Relations, &errs)
	}
	if y.Syntax != nil {
		c.syntax(y.Syntax, &errs)
	}
	if y.Budget != nil {
		c.budget(y.Budget, &errs)
	}
	c.normalize(y.Normalize, &errs)
	if y.BaseRuns != nil {
		if n := y.BaseRuns.Value; n < 1 || n > MaxBaseRuns {
			errs.Add(y.BaseRuns.At("base_runs must be between 1 and %d, found %d", MaxBaseRuns, n))
		} else {
			c.BaseRuns = int(n)
		}
	}
	if y.Confirm != nil {
		if n := y.Confirm.Value; n < 1 || n > MaxConfirmRuns {
			errs.Add(y.Confirm.At("confirm_runs must be between 1 and %d, found %d", MaxConfirmRuns, n))
		} else {
			c.ConfirmRuns = int(n)
		}
	}
	if y.Bundles != nil {
		if n := y.Bundles.Value; n < 1 || n > MaxBundlesPerGroup {
			errs.Add(y.Bundles.At("bundles_per_group must be between 1 and %d, found %d", MaxBundlesPerGroup, n))
		} else {
			c.BundlesPerGroup = int(n)
		}
	}
	if cc := y.ConfirmCounted; cc != nil {
		switch {
		case cc.bad != "":
			errs.Add(cc.n.At("confirm_counted: want true, false or a number (one in that many), found %s", cc.bad))
		case cc.isBool:
			c.CountUnconfirmed = !cc.b
			if cc.b {
				c.ConfirmCounted = 1
			}
		case cc.n.Value < 1 || cc.n.Value > MaxConfirmCounted:
			errs.Add(cc.n.At("confirm_counted must be true, false or a number between 1 and %d (one in that many), found %d", MaxConfirmCounted, cc.n.Value))
		default:
			c.ConfirmCounted = int(cc.n.Value)
		}
	}
	if y.Signature != nil {
		c.signature(y.Signature, &errs)
	}
	if y.Flags != nil {
		c.flags(y.Flags, &errs)
		if y.Transpiler != nil {
			c.flagsReach(y.Transpiler, &errs)
		}
	}
	// A value that did not decode has no more to say.
	return c, append(decodeErrs, errs.Without(decodeErrs)...)
}

func (c *Config) signature(y *signatureYAML, errs *ErrorList) {
	for _, f := range y.Forms {
		if _, ok := namecase.Form(f.Value); !ok {
			errs.Add(f.At("signature: unknown name form %q (want one of %s)", f.Value, strings.Join(namecase.Names(), ", ")))
			continue
		}
		c.Signature.Forms = append(c.Signature.Forms, f.Value)
	}
	for _, w := range y.Generic {
		if w.Value == "" || strings.ContainsFunc(w.Value, unicode.IsSpace) {
			errs.Add(w.At("signature: a generic word is one word, found %q", w.Value))
			continue
		}
		c.Signature.Generic = append(c.Signature.Generic, w.Value)
	}
}

func (c *Config) relations(r *relationsYAML, errs *ErrorList) {
	c.Relations.Pos = Pos{File: c.File, Line: 1, Col: 1}
	for _, f := range r.Files {
		m, err := c.glob(f)
		errs.Add(err)
		c.Relations.Files = append(c.Relations.Files, m...)
	}
	c.Relations.Files = dedupe(c.Relations.Files)
	c.Relations.Go = r.Go
	c.Relations.Only = r.Only
}

// ZeroConfig reports whether the campaign has no relation file and no Go
// relation: its relations are inferred from the seeds and the
// transpiler's outputs (docs/zeroconfig.md).
func (c *Config) ZeroConfig() bool { return len(c.Relations.Files) == 0 && len(c.Relations.Go) == 0 }

// syntax reads the parser of the seeds of a zero-config campaign: a
// grammar file (a path ending in .grammar, relative to the configuration)
// or the name of a parser linked into mcpt.
func (c *Config) syntax(s *String, errs *ErrorList) {
	c.SyntaxPos = s.Pos
	switch {
	case s.Value == "":
		errs.Add(s.At("syntax: give a grammar file (LANGUAGE.grammar) or the name of a parser (typescript)"))
	case strings.HasSuffix(s.Value, ".grammar"):
		c.Syntax = c.rel(s.Value)
		if fi, err := os.Stat(c.Syntax); err != nil {
			errs.Add(s.At("syntax %q: %v", s.Value, err))
		} else if !fi.Mode().IsRegular() {
			errs.Add(s.At("syntax %q: not a regular file", s.Value))
		}
	default:
		c.Syntax = s.Value
	}
	if len(c.Relations.Files) > 0 || len(c.Relations.Go) > 0 {
		errs.Add(s.At("syntax: is for a campaign without relation files, whose relations mcpt infers; relation files name their parser themselves (syntax: in them)"))
	}
}

// MaxConfirmCounted bounds the one in n of confirm_counted.
const MaxConfirmCounted = 1000000

// confirmCounted is confirm_counted: a boolean, or the n of one in n.
type confirmCounted struct {
	isBool bool
	b      bool
	n      Int
	bad    string // what was found instead, as written
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (c *confirmCounted) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if v, ok := n.(*ast.BoolNode); ok {
		c.isBool, c.b = true, v.Value
		c.n.Pos = yamlpos.PosOf(ctx, n)
		return nil
	}
	if _, ok := n.(*ast.IntegerNode); !ok {
		// Reported with the other errors of the file (see Config).
		c.n.Pos, c.bad = yamlpos.PosOf(ctx, n), strings.TrimSpace(n.String())
		return nil
	}
	return c.n.UnmarshalYAML(ctx, n)
}

// MaxBundlesPerGroup bounds bundles_per_group (and --bundles-per-group):
// more is a bundle for every finding of any campaign one would run.
const MaxBundlesPerGroup = 1000000

func (c *Config) budget(b *budgetYAML, errs *ErrorList) {
	c.Budget.Exhaustive = b.Exhaustive
	if b.MaxTime != nil {
		d, err := time.ParseDuration(b.MaxTime.Value)
		switch {
		case err != nil || d < 0:
			errs.Add(b.MaxTime.At("max_time: want a duration such as 30s or 12h, found %q", b.MaxTime.Value))
		case d == 0:
			errs.Add(b.MaxTime.At("max_time: must be positive (leave it out for no time limit)"))
		}
		c.Budget.MaxTime = d
	}
	if b.MaxCases != nil {
		if b.MaxCases.Value <= 0 {
			errs.Add(b.MaxCases.At("max_cases: must be positive, found %d (leave it out for no limit)", b.MaxCases.Value))
		}
		c.Budget.MaxCases = int(b.MaxCases.Value)
	}
	for _, f := range []struct {
		name string
		v    *Int
		dst  *int
	}{{"max_mr", b.MaxMR, &c.Budget.MaxMR}, {"max_spots", b.MaxSpots, &c.Budget.MaxSpots}} {
		if f.v == nil {
			continue
		}
		if f.v.Value < 0 {
			errs.Add(f.v.At("%s: must not be negative, found %d", f.name, f.v.Value))
		}
		*f.dst = int(f.v.Value)
	}
}

func (c *Config) normalize(rules []ruleYAML, errs *ErrorList) {
	for _, r := range rules {
		var rule oracle.Rule
		if r.Match.Value == "" {
			pos := r.Match.Pos
			if pos.Line == 0 {
				pos = Pos{File: c.File, Line: 1, Col: 1}
			}
			errs.Add(Errorf(pos, "normalize: a rule needs match"))
		} else if re, err := regexp.Compile(r.Match.Value); err != nil {
			errs.Add(r.Match.At("bad pattern: %v", err))
		} else {
			rule.Match = re
		}
		if r.Replace != nil {
			v := r.Replace.Value
			rule.Replace = &v
		}
		for _, f := range r.Files {
			if _, err := filepath.Match(f.Value, ""); err != nil {
				errs.Add(f.At("bad file pattern %q", f.Value))
			}
			rule.Files = append(rule.Files, f.Value)
		}
		if rule.Match != nil { // else an error is reported
			c.Normalize = append(c.Normalize, rule)
		}
	}
}

func (c *Config) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

func (c *Config) glob(s String) ([]string, *Error) {
	pat := c.rel(s.Value)
	m, err := filepath.Glob(pat)
	if err != nil {
		return nil, s.At("bad pattern %q", s.Value)
	}
	if len(m) == 0 {
		return nil, s.At("%q matches no file", s.Value)
	}
	slices.Sort(m)
	return m, nil
}

func (c *Config) seeds(s *seedsYAML, errs *ErrorList) {
	for _, f := range s.Files {
		m, err := c.glob(f)
		errs.Add(err)
		c.Seeds.Files = append(c.Seeds.Files, m...)
		c.Seeds.Patterns = append(c.Seeds.Patterns, c.rel(f.Value))
	}
	c.Seeds.Files = dedupe(c.Seeds.Files)
	if len(s.Files) > 0 {
		c.Seeds.Pos = s.Files[0].Pos
	}
	if s.Grammar != nil {
		c.Seeds.Grammar = c.rel(s.Grammar.Value)
		c.Seeds.Pos = s.Grammar.Pos
		if _, err := os.Stat(c.Seeds.Grammar); err != nil {
			errs.Add(s.Grammar.At("grammar %q: %v", s.Grammar.Value, err))
		}
		switch {
		case s.Count == nil:
			errs.Add(s.Grammar.At("seeds: a grammar needs a positive count"))
		case s.Count.Value <= 0:
			errs.Add(s.Count.At("seeds: count must be positive, found %d", s.Count.Value))
		default:
			c.Seeds.Count = int(s.Count.Value)
		}
		c.Seeds.Seed = s.Seed
		c.Seeds.Extension = GrammarExtension(c.Seeds.Grammar)
		if c.Seeds.Extension == "" && s.Extension == nil {
			errs.Add(s.Grammar.At("seeds: give the extension of the generated programs: the grammar's file name is not LANGUAGE.grammar"))
		}
		if s.Extension != nil {
			c.Seeds.Extension = strings.TrimPrefix(s.Extension.Value, ".")
			if c.Seeds.Extension == "" || strings.ContainsAny(c.Seeds.Extension, "/\\") {
				errs.Add(s.Extension.At("seeds: bad extension %q", s.Extension.Value))
			}
		}
	}
	if len(s.Files) == 0 && s.Grammar == nil {
		errs.Add(Errorf(Pos{File: c.File, Line: 1, Col: 1}, "seeds: no files and no grammar"))
	}
}

func dedupe(xs []string) []string {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// GrammarExtension is the extension of the programs a grammar generates,
// read from its file name: "cll" for cll.grammar. It is "" when the name
// is not of the form LANGUAGE.grammar.
func GrammarExtension(grammar string) string {
	stem, ok := strings.CutSuffix(filepath.Base(grammar), ".grammar")
	if !ok || stem == "" || strings.ContainsAny(stem, ". ") {
		return ""
	}
	return stem
}
