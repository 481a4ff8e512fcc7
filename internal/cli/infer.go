package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/mcpt-tool/mcpt/infer"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
)

// inlineFlags describe a campaign on the command line, without a
// configuration file: the transpiler's command, the seeds and, for seeds
// of a language mcpt does not know by extension, the parser.
type inlineFlags struct {
	Transpiler string   `placeholder:"COMMAND" help:"The transpiler's command line, instead of a configuration: words split as a shell splits them (no shell runs it), with {input} and {outdir} where the input file and the output directory go (exit status 0 accepts the input, 1 and 2 reject it). Needs --seeds; the relations are inferred (docs/zeroconfig.md)."`
	Seeds      []string `placeholder:"GLOB" help:"Seed files (a pattern, repeatable), with --transpiler."`
	Syntax     string   `placeholder:"GRAMMAR" help:"With --transpiler: the parser of the seeds, a grammar file (LANGUAGE.grammar) or a linked parser's name; by default the seeds' extension names it."`
}

// inlineConfig is the name a configuration from the command line goes by
// in messages and recipes.
const inlineConfig = "command-line.yaml"

// given reports whether the flags describe the campaign.
func (f *inlineFlags) given() bool { return f.Transpiler != "" || len(f.Seeds) > 0 || f.Syntax != "" }

// configYAML is the configuration the flags describe, as a file would
// write it. cfg is -c's value, which they replace: naming both is an
// error.
func (f *inlineFlags) configYAML(cfg string) ([]byte, error) {
	switch {
	case cfg != defaultConfig && f.Transpiler == "":
		// -c with --seeds or --syntax: the user meant to change the
		// configuration's seeds, which these flags do not
		flag := "--seeds"
		if len(f.Seeds) == 0 {
			flag = "--syntax"
		}
		return nil, usageErr("-c %s and %s: %s goes with --transpiler (a campaign without a configuration); a configuration names its seeds and parser itself (seeds: and syntax: in %s)", cfg, flag, flag, cfg)
	case cfg != defaultConfig:
		return nil, usageErr("-c %s and --transpiler: the campaign is in the configuration or on the command line, not both", cfg)
	case f.Transpiler == "":
		return nil, usageErr("--seeds and --syntax go with --transpiler COMMAND (or write them in a configuration, -c)")
	case len(f.Seeds) == 0:
		return nil, usageErr("--transpiler needs --seeds GLOB: the seed files")
	}
	argv, err := splitCommand(f.Transpiler)
	if err != nil {
		return nil, usageErr("--transpiler: %v", err)
	}
	cmd := strings.Join(argv, " ")
	if !strings.Contains(cmd, "{input}") {
		return nil, usageErr("--transpiler %q has no {input}: write {input} where the input file goes (e.g. thrift --gen cpp -out {outdir} {input})", f.Transpiler)
	}
	if !strings.Contains(cmd, "{outdir}") {
		return nil, usageErr("--transpiler %q has no {outdir}: mcpt reads the output from the directory it gives there (e.g. thrift --gen cpp -out {outdir} {input})", f.Transpiler)
	}
	// One line per flag, so that an error's line says which flag it is
	// (see inlineError).
	cmdLine, _ := yaml.MarshalWithOptions(argv, yaml.Flow(true))
	seedLine, _ := yaml.MarshalWithOptions(f.Seeds, yaml.Flow(true))
	var b strings.Builder
	fmt.Fprintf(&b, "transpiler:\n  command: %s\n  reject: [1, 2]\nseeds:\n  files: %s\n", strings.TrimSpace(string(cmdLine)), strings.TrimSpace(string(seedLine)))
	if f.Syntax != "" {
		fmt.Fprintf(&b, "syntax: %s\n", strconv.Quote(f.Syntax))
	}
	return []byte(b.String()), nil
}

// inlineLineRE is a position in the configuration made from the command
// line.
var inlineLineRE = regexp.MustCompile(regexp.QuoteMeta(inlineConfig) + `:(\d+):\d+: `)

// inlineError names the flag a message about the configuration made from
// the command line is about, instead of its line.
func inlineError(err error) error {
	if err == nil {
		return nil
	}
	msg := inlineLineRE.ReplaceAllStringFunc(err.Error(), func(m string) string {
		line, _ := strconv.Atoi(inlineLineRE.FindStringSubmatch(m)[1])
		switch line {
		case 2, 3:
			return "--transpiler: "
		case 5:
			return "--seeds: "
		case 6:
			return "--syntax: "
		}
		return "command line: "
	})
	if msg == err.Error() {
		return err
	}
	var ce *setup.ConfigError
	if errors.As(err, &ce) {
		return &setup.ConfigError{Err: errors.New(msg)}
	}
	return &exitError{code: exitUsage, err: errors.New(msg)}
}

// splitCommand splits a command line into words as a POSIX shell does,
// without expanding anything: white space separates words, single quotes
// keep everything, double quotes keep all but \" and \\, a backslash
// outside quotes escapes the next character.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false // a word is started
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("a double quote is not closed")
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("an empty command")
	}
	return words, nil
}

type inferCmd struct {
	Config string `short:"c" default:"mcpt.yaml" help:"Configuration file (without relation files)."`
	inlineFlags
	Out   string   `short:"o" default:"inferred" placeholder:"DIR" help:"Where to write mcpt.yaml and relations/: a directory that does not exist or is empty (see --force)."`
	Force bool     `help:"Write over the files of an earlier mcpt infer in the directory (the others are left alone)."`
	Flags []string `placeholder:"DIMENSION=VALUE" help:"Keep only this value of a dimension of the configuration's flags (repeatable); the outputs of the first combination left are learned from."`
}

// Run infers the relations of a campaign without relation files and
// writes them with a configuration that runs them.
func (c *inferCmd) Run(tools *setup.Tools) error {
	s, err := loadSetupInline(tools, c.Config, &c.inlineFlags, nil, setup.Options{Flags: c.Flags})
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Inferred == nil {
		return usageErr("%s names relation files: mcpt infers the relations of a campaign without them (leave relations out, or name none)", s.Config.File)
	}
	out := c.Out
	if err := checkInferDir(out, c.Force); err != nil {
		return err
	}
	relDir := filepath.Join(out, "relations")
	p := s.Inferred.Pack
	if strings.HasSuffix(s.Config.Syntax, ".grammar") {
		// the grammar, named from where the relation files will be
		abs, _ := filepath.Abs(relDir)
		g, _ := filepath.Abs(s.Config.Syntax)
		if r, err := filepath.Rel(abs, g); err == nil {
			p.Syntax = filepath.ToSlash(r)
		}
	}
	names, files := p.Files()
	if err := os.MkdirAll(relDir, 0o755); err != nil {
		return &exitError{code: exitBroken, err: err}
	}
	var paths []string
	for _, n := range names {
		path := filepath.Join(relDir, n)
		if err := result.WriteFileAtomic(path, files[n]); err != nil {
			return &exitError{code: exitBroken, err: err}
		}
		paths = append(paths, path)
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	var absPaths []string
	for _, p := range paths {
		a, _ := filepath.Abs(p)
		absPaths = append(absPaths, a)
	}
	cfgYAML, err := s.Config.YAML(absOut, absPaths)
	if err != nil {
		return &exitError{code: exitBroken, err: err}
	}
	head := fmt.Sprintf("# A campaign with the relations mcpt inferred from %s (mcpt infer):\n# edit them, then mcpt run -c %s.\n", s.Config.File, filepath.Join(out, "mcpt.yaml"))
	if err := result.WriteFileAtomic(filepath.Join(out, "mcpt.yaml"), append([]byte(head), cfgYAML...)); err != nil {
		return &exitError{code: exitBroken, err: err}
	}
	printInferred(os.Stdout, s.Inferred, s.Relations)
	fmt.Printf("wrote %s and %d relation files in %s: mcpt run -c %s runs them, mcpt validate -c %s shows each relation's spots and checks\n",
		filepath.Join(out, "mcpt.yaml"), len(paths), relDir, filepath.Join(out, "mcpt.yaml"), filepath.Join(out, "mcpt.yaml"))
	return nil
}

// checkInferDir refuses an output directory that holds files, unless
// force (and then only mcpt.yaml and relations/ of an earlier infer are
// written over).
func checkInferDir(out string, force bool) error {
	ents, err := os.ReadDir(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usageErr("-o %s: %v", out, err)
	case len(ents) == 0 || force:
		return nil
	}
	return usageErr("-o %s is not empty: write elsewhere, or add --force to write over its mcpt.yaml and relations/", out)
}

// loadSetupInline loads the campaign of -c, or of the command line when
// the inline flags are given.
func loadSetupInline(tools *setup.Tools, cfg string, in *inlineFlags, faults []string, opt setup.Options) (*setup.Setup, error) {
	if !in.given() {
		return loadSetup(tools, cfg, faults, opt)
	}
	data, err := in.configYAML(cfg)
	if err != nil {
		return nil, err
	}
	opt.Inline = data
	s, err := loadSetup(tools, inlineConfig, faults, opt)
	return s, inlineError(err)
}

// printInferred says what inference found: per list type, its relations
// and those left out; the generator's habits.
func printInferred(w io.Writer, inf *setup.Inferred, rels []*relation.Relation) {
	w = printable.Writer{W: w}
	p := inf.Pack
	h := p.Habits
	kept := map[string]bool{}
	for _, r := range rels {
		kept[r.Name] = true
	}
	fmt.Fprintf(w, "inferred from %d seeds (%d runs of the transpiler): %d list types\n", p.Seeds, inf.Runs, len(p.Lists))
	byList := map[*infer.List][]infer.Relation{}
	for _, r := range p.Relations() {
		byList[r.List] = append(byList[r.List], r)
	}
	for _, l := range p.Lists {
		fmt.Fprintf(w, "  %s: %d lists in %d seeds\n", l.Type, l.Instances, l.Seeds)
		for _, r := range byList[l] {
			switch {
			case kept[r.Name] && len(r.Kind.RejectedOn) > 0:
				fmt.Fprintf(w, "    %s: not run on %s, where the transpiler rejected a copy (%s)\n", r.Name, strings.Join(r.Kind.RejectedOn, ", "), r.Kind.RejectedBy)
			case kept[r.Name]:
				fmt.Fprintf(w, "    %s\n", r.Name)
			case p.Left[r.Name] != "":
				fmt.Fprintf(w, "    %s: left out, %s\n", r.Name, p.Left[r.Name])
			}
		}
	}
	fmt.Fprintf(w, "the generator writes names as %s; %d declared names are words of its own (signature.generic)", strings.Join(h.Forms, ", "), len(h.Generic))
	if len(h.Counters) > 0 {
		fmt.Fprintf(w, "; it numbers temporaries %s… (normalised)", strings.Join(h.Counters, "…, "))
	}
	if len(h.Columns) > 0 {
		fmt.Fprintf(w, "; it aligns columns in %s (normalised)", strings.Join(h.Columns, ", "))
	}
	places, byNum := 0, 0
	for _, l := range p.Lists {
		places += len(l.Places)
		byNum += len(l.NumberPlaces)
	}
	fmt.Fprintf(w, "; %d places list declarations in the input's order, %d by their numbers\n", places, byNum)
	if len(inf.Unparsed) > 0 {
		fmt.Fprintf(w, "%d seeds do not parse, and were left out:\n", len(inf.Unparsed))
		for i, err := range inf.Unparsed {
			if i == 5 {
				fmt.Fprintf(w, "  … and %d more\n", len(inf.Unparsed)-i)
				break
			}
			fmt.Fprintf(w, "  %v\n", err)
		}
	}
}
