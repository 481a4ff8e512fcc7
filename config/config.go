// Package config reads mcpt.yaml, the description of a campaign: the
// transpiler under test, the seeds, the relations and the budget. Decoding
// is strict (unknown keys are errors) and every error says file:line:col.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/internal/inputfile"
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
	Normalize  []Rule
	BaseRuns   int // how many times each base is transpiled to detect nondeterminism (1 = no check)
}

// Transpiler says how to run the transpiler under test: a builtin in
// process, or an external command.
type Transpiler struct {
	Builtin        string
	Options        map[string]string
	Faults         []string
	Command        []string
	WorkDir        string
	Env            []string
	Timeout        time.Duration
	Accept, Reject []int
	InputName      string
	MaxOutputFiles int
	MaxOutputBytes int64
	Pos            Pos
}

// Seeds names seed files, or a grammar to generate them from.
type Seeds struct {
	Files     []string // resolved, sorted, de-duplicated paths
	Grammar   string
	Count     int
	Seed      uint64
	Extension string // of generated seeds' names, without the dot
	Pos       Pos
}

// Relations names relation files and Go relations.
type Relations struct {
	Files []string
	Go    []string
	Only  []string
	// OnlyPos holds the position of each name of Only.
	OnlyPos []Pos
	Pos     Pos
}

// Budget bounds a campaign (the paper's max_time, max_mr, max_spots, plus
// max_cases for deterministic runs). Zero means unset.
type Budget struct {
	MaxTime  time.Duration
	MaxCases int
	MaxMR    int
	MaxSpots int
}

// Rule is a normalisation rule applied to every output file before checks:
// lines matching Match are dropped, or rewritten to Replace.
type Rule struct {
	Files   []string // glob patterns of files it applies to; empty = all
	Match   string
	Replace *string
	Pos     Pos
}

type fileYAML struct {
	Transpiler *transpilerYAML `yaml:"transpiler"`
	Seeds      *seedsYAML      `yaml:"seeds"`
	Relations  *relationsYAML  `yaml:"relations"`
	Budget     *budgetYAML     `yaml:"budget"`
	Normalize  []ruleYAML      `yaml:"normalize"`
	BaseRuns   *int            `yaml:"base_runs"`
}

type transpilerYAML struct {
	Builtin        *String           `yaml:"builtin"`
	Options        map[string]String `yaml:"options"`
	Faults         []String          `yaml:"faults"`
	Command        []String          `yaml:"command"`
	Dir            *String           `yaml:"dir"`
	Env            map[string]String `yaml:"env"`
	Timeout        *String           `yaml:"timeout"`
	Accept         []int             `yaml:"accept"`
	Reject         []int             `yaml:"reject"`
	InputName      *String           `yaml:"input_name"`
	MaxOutputFiles int               `yaml:"max_output_files"`
	MaxOutputBytes int64             `yaml:"max_output_bytes"`
}

type seedsYAML struct {
	Files     []String `yaml:"files"`
	Grammar   *String  `yaml:"grammar"`
	Count     int      `yaml:"count"`
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
	MaxCases int     `yaml:"max_cases"`
	MaxMR    int     `yaml:"max_mr"`
	MaxSpots int     `yaml:"max_spots"`
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

// Parse decodes and validates configuration data read from path.
func Parse(path string, data []byte) (*Config, error) {
	var y fileYAML
	if err := Decode(path, data, &y); err != nil {
		return nil, err
	}
	c := &Config{File: path, Dir: filepath.Dir(path), BaseRuns: 2}
	top := Pos{File: path, Line: 1, Col: 1}
	if y.Transpiler == nil {
		return nil, Errorf(top, "missing transpiler section")
	}
	if err := c.transpiler(y.Transpiler); err != nil {
		return nil, err
	}
	if y.Seeds == nil {
		return nil, Errorf(top, "missing seeds section")
	}
	if err := c.seeds(y.Seeds); err != nil {
		return nil, err
	}
	if y.Relations == nil {
		return nil, Errorf(top, "missing relations section")
	}
	c.Relations.Pos = top
	for _, f := range y.Relations.Files {
		m, err := c.glob(f)
		if err != nil {
			return nil, err
		}
		c.Relations.Files = append(c.Relations.Files, m...)
	}
	c.Relations.Files = dedupe(c.Relations.Files)
	for _, g := range y.Relations.Go {
		c.Relations.Go = append(c.Relations.Go, g.Value)
	}
	for _, o := range y.Relations.Only {
		c.Relations.Only = append(c.Relations.Only, o.Value)
		c.Relations.OnlyPos = append(c.Relations.OnlyPos, o.Pos)
	}
	if len(c.Relations.Files) == 0 && len(c.Relations.Go) == 0 {
		return nil, Errorf(top, "relations: no relation files and no Go relations")
	}
	if b := y.Budget; b != nil {
		if b.MaxTime != nil {
			d, err := time.ParseDuration(b.MaxTime.Value)
			if err != nil || d < 0 {
				return nil, b.MaxTime.At("max_time: want a duration such as 30s or 12h, found %q", b.MaxTime.Value)
			}
			c.Budget.MaxTime = d
		}
		if b.MaxCases < 0 || b.MaxMR < 0 || b.MaxSpots < 0 {
			return nil, Errorf(top, "budget: limits must not be negative")
		}
		c.Budget.MaxCases, c.Budget.MaxMR, c.Budget.MaxSpots = b.MaxCases, b.MaxMR, b.MaxSpots
	}
	for _, r := range y.Normalize {
		rule := Rule{Match: r.Match.Value, Pos: r.Match.Pos}
		if r.Match.Value == "" {
			return nil, Errorf(top, "normalize: a rule needs match")
		}
		if r.Replace != nil {
			v := r.Replace.Value
			rule.Replace = &v
		}
		for _, f := range r.Files {
			if _, err := filepath.Match(f.Value, ""); err != nil {
				return nil, f.At("bad file pattern %q", f.Value)
			}
			rule.Files = append(rule.Files, f.Value)
		}
		c.Normalize = append(c.Normalize, rule)
	}
	if y.BaseRuns != nil {
		if *y.BaseRuns < 1 || *y.BaseRuns > 10 {
			return nil, Errorf(top, "base_runs must be between 1 and 10")
		}
		c.BaseRuns = *y.BaseRuns
	}
	return c, nil
}

func (c *Config) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

func (c *Config) glob(s String) ([]string, error) {
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

func (c *Config) transpiler(t *transpilerYAML) error {
	tr := &c.Transpiler
	switch {
	case t.Builtin != nil && len(t.Command) > 0:
		return t.Builtin.At("transpiler: give builtin or command, not both")
	case t.Builtin != nil:
		tr.Builtin, tr.Pos = t.Builtin.Value, t.Builtin.Pos
		if t.Dir != nil || t.Env != nil || len(t.Accept) > 0 || len(t.Reject) > 0 {
			return t.Builtin.At("transpiler: dir, env, accept and reject are for commands")
		}
	case len(t.Command) > 0:
		tr.Pos = t.Command[0].Pos
		for _, a := range t.Command {
			tr.Command = append(tr.Command, a.Value)
		}
		if tr.Command[0] == "" {
			return t.Command[0].At("transpiler: empty command name")
		}
		if len(t.Faults) > 0 || len(t.Options) > 0 {
			return t.Command[0].At("transpiler: faults and options are for builtins")
		}
	default:
		return Errorf(Pos{File: c.File, Line: 1, Col: 1}, "transpiler: give builtin or command")
	}
	tr.Options = map[string]string{}
	for k, v := range t.Options {
		tr.Options[k] = v.Value
	}
	for _, f := range t.Faults {
		tr.Faults = append(tr.Faults, f.Value)
	}
	tr.WorkDir = c.Dir
	if t.Dir != nil {
		tr.WorkDir = c.rel(t.Dir.Value)
		if st, err := os.Stat(tr.WorkDir); err != nil || !st.IsDir() {
			return t.Dir.At("transpiler dir %q is not a directory", t.Dir.Value)
		}
	}
	for _, k := range sortedKeysS(t.Env) {
		tr.Env = append(tr.Env, k+"="+t.Env[k].Value)
	}
	tr.Timeout = 60 * time.Second
	if t.Timeout != nil {
		d, err := time.ParseDuration(t.Timeout.Value)
		if err != nil || d <= 0 {
			return t.Timeout.At("timeout: want a positive duration such as 30s, found %q", t.Timeout.Value)
		}
		tr.Timeout = d
	}
	tr.Accept, tr.Reject = t.Accept, t.Reject
	for _, a := range tr.Accept {
		if slices.Contains(tr.Reject, a) {
			return Errorf(tr.Pos, "transpiler: exit code %d is both accept and reject", a)
		}
	}
	if t.InputName != nil {
		tr.InputName = t.InputName.Value
	}
	tr.MaxOutputFiles, tr.MaxOutputBytes = t.MaxOutputFiles, t.MaxOutputBytes
	return nil
}

func (c *Config) seeds(s *seedsYAML) error {
	for _, f := range s.Files {
		m, err := c.glob(f)
		if err != nil {
			return err
		}
		c.Seeds.Files = append(c.Seeds.Files, m...)
	}
	c.Seeds.Files = dedupe(c.Seeds.Files)
	if s.Grammar != nil {
		c.Seeds.Grammar = c.rel(s.Grammar.Value)
		c.Seeds.Pos = s.Grammar.Pos
		if _, err := os.Stat(c.Seeds.Grammar); err != nil {
			return s.Grammar.At("grammar %q: %v", s.Grammar.Value, err)
		}
		if s.Count <= 0 {
			return s.Grammar.At("seeds: a grammar needs a positive count")
		}
		c.Seeds.Count, c.Seeds.Seed = s.Count, s.Seed
		c.Seeds.Extension = GrammarExtension(c.Seeds.Grammar)
		if c.Seeds.Extension == "" && s.Extension == nil {
			return s.Grammar.At("seeds: give the extension of the generated programs: the grammar's file name is not LANGUAGE.grammar")
		}
		if s.Extension != nil {
			c.Seeds.Extension = strings.TrimPrefix(s.Extension.Value, ".")
			if c.Seeds.Extension == "" || strings.ContainsAny(c.Seeds.Extension, "/\\") {
				return s.Extension.At("seeds: bad extension %q", s.Extension.Value)
			}
		}
	}
	if len(c.Seeds.Files) == 0 && c.Seeds.Grammar == "" {
		return Errorf(Pos{File: c.File, Line: 1, Col: 1}, "seeds: no files and no grammar")
	}
	return nil
}

func dedupe(xs []string) []string {
	slices.Sort(xs)
	return slices.Compact(xs)
}

func sortedKeysS(m map[string]String) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
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
