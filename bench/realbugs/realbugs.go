// Package realbugs is the benchmark of bugs that real transpilers had:
// each is a wrong output (silent: the next tool accepts it or it looks
// valid) reported on a project's tracker and fixed in a later release. A
// bug is a directory of bugs/ holding bug.yaml (where it was reported, the
// buggy and the fixed release, the settings it needs, how to run the
// transpiler), the minimal input that shows it and buggy.diff, the
// difference between the fixed and the buggy release's outputs on that
// input. The minimal input only verifies the bug; the benchmark's
// campaigns never use it as a seed.
package realbugs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// Bug is one known bug of a real transpiler, as bug.yaml describes it.
type Bug struct {
	// ID is the name of the bug's directory.
	ID string `yaml:"-"`
	// Dir is the bug's directory.
	Dir string `yaml:"-"`

	// Tracker is where the bug was reported: owner/repo#number.
	Tracker string `yaml:"tracker"`
	// Fix names the change that fixed it (owner/repo#number of a pull
	// request, or a commit), when the tracker's thread names one.
	Fix string `yaml:"fix"`
	// Title is the bug in one line.
	Title string `yaml:"title"`
	// Transpiler is the program under test, as a pack's configuration
	// names it (tsc, esbuild, protoc-gen-go …).
	Transpiler string `yaml:"transpiler"`
	// Packages are installed by name and version: the first at Buggy or
	// Fixed, the others at the version each names (npm:NAME@VERSION,
	// go:PATH@VERSION). A package is npm:NAME (the npm registry) or go:PATH
	// (go install PATH@VERSION).
	Packages []string `yaml:"packages"`
	// Buggy is the newest release that has the bug, Fixed the first that
	// does not.
	Buggy string `yaml:"buggy"`
	Fixed string `yaml:"fixed"`
	// Settings says which flags or options the bug needs, in prose.
	Settings string `yaml:"settings"`
	// Run transpiles the minimal input: a command (no shell), run in a
	// directory holding copies of the input files, with the installed
	// packages' programs first on PATH and their node_modules on
	// NODE_PATH. {input} is the first input file's name, {outdir} the
	// output directory.
	Run []string `yaml:"run"`
	// Input lists the minimal input's files, relative to the bug's
	// directory.
	Input []string `yaml:"input"`
	// Symptom says what is wrong in the buggy output and what it does at
	// run time.
	Symptom string `yaml:"symptom"`
	// Pack is the configuration of the pack that tests this transpiler,
	// relative to the repository's root.
	Pack string `yaml:"pack"`
	// Derived is the pack's derived configuration, relative to the
	// repository's root: its relations predict no line of the output by
	// hand (locality, order, analogy and the semantic checks), which
	// Options.Derived runs in place of Pack. It is Pack itself for a pack
	// whose relations are all derived, and empty for a pack that has
	// none.
	Derived string `yaml:"derived"`
	// Reach says which relations and checkers can see the bug, or why none
	// can.
	Reach string `yaml:"reach"`
	// Ignore lists regular expressions (RE2); an output line that one of
	// them matches is left out of both trees before they are compared. It
	// is for what a release writes about itself (a version stamp in a
	// header), never for the lines the bug changes.
	Ignore []string `yaml:"ignore"`

	ignore []*regexp.Regexp
}

// DiffFile is the name of the verified difference in a bug's directory.
const DiffFile = "buggy.diff"

var trackerRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+$`)

// Load reads the bug in dir.
func Load(dir string) (*Bug, error) {
	file := filepath.Join(dir, "bug.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b := &Bug{ID: filepath.Base(dir), Dir: dir}
	if err := yamlpos.Decode(file, data, b); err != nil {
		return nil, err
	}
	if err := b.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return b, nil
}

// LoadAll reads every bug under root (a directory per bug), in the order
// of their names.
func LoadAll(root string) ([]*Bug, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var bugs []*Bug
	var errs []error
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		b, err := Load(filepath.Join(root, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bugs = append(bugs, b)
	}
	return bugs, errors.Join(errs...)
}

// check tells what bug.yaml lacks or gets wrong.
func (b *Bug) check() error {
	var errs []error
	need := func(name, v string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, fmt.Errorf("%s is missing", name))
		}
	}
	need("tracker", b.Tracker)
	need("title", b.Title)
	need("transpiler", b.Transpiler)
	need("buggy", b.Buggy)
	need("fixed", b.Fixed)
	need("symptom", b.Symptom)
	need("pack", b.Pack)
	need("reach", b.Reach)
	if b.Tracker != "" && !trackerRE.MatchString(b.Tracker) {
		errs = append(errs, fmt.Errorf("tracker %q is not owner/repo#number", b.Tracker))
	}
	if b.Buggy != "" && b.Buggy == b.Fixed {
		errs = append(errs, fmt.Errorf("buggy and fixed are the same release, %s", b.Buggy))
	}
	if len(b.Packages) == 0 {
		errs = append(errs, errors.New("packages is missing"))
	}
	for i, p := range b.Packages {
		pk, err := ParsePackage(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i == 0 && pk.Version != "" {
			errs = append(errs, fmt.Errorf("package %s: the first package takes the buggy and fixed releases, not a version of its own", p))
		}
		if i > 0 && pk.Version == "" {
			errs = append(errs, fmt.Errorf("package %s: a further package needs a version (NAME@VERSION)", p))
		}
	}
	if len(b.Run) == 0 {
		errs = append(errs, errors.New("run is missing"))
	} else if !slices.ContainsFunc(b.Run, func(a string) bool { return strings.Contains(a, "{outdir}") }) {
		errs = append(errs, errors.New("run does not name {outdir}"))
	}
	if len(b.Input) == 0 {
		errs = append(errs, errors.New("input is missing"))
	}
	if b.Derived != "" && !filepath.IsLocal(filepath.FromSlash(b.Derived)) {
		errs = append(errs, fmt.Errorf("derived %s is not a path inside the repository", b.Derived))
	}
	b.ignore = nil
	for _, e := range b.Ignore {
		re, err := regexp.Compile(e)
		if err != nil {
			errs = append(errs, fmt.Errorf("ignore %q: %w", e, err))
			continue
		}
		b.ignore = append(b.ignore, re)
	}
	for _, in := range b.Input {
		if !filepath.IsLocal(in) {
			errs = append(errs, fmt.Errorf("input %s is not inside the bug's directory", in))
			continue
		}
		if fi, err := os.Lstat(filepath.Join(b.Dir, in)); err != nil || !fi.Mode().IsRegular() {
			errs = append(errs, fmt.Errorf("input %s is not a file of the bug's directory", in))
		}
	}
	return errors.Join(errs...)
}

// Package is a package installed by name and version.
type Package struct {
	Registry string // "npm" or "go"
	Name     string // the npm package or the Go package path of the command
	Version  string // empty: the bug's release
}

func (p Package) String() string {
	if p.Version == "" {
		return p.Registry + ":" + p.Name
	}
	return p.Registry + ":" + p.Name + "@" + p.Version
}

// ParsePackage reads npm:NAME[@VERSION] or go:PATH[@VERSION].
func ParsePackage(s string) (Package, error) {
	reg, rest, ok := strings.Cut(s, ":")
	if !ok || (reg != "npm" && reg != "go") || rest == "" {
		return Package{}, fmt.Errorf("package %q: want npm:NAME or go:PATH, with @VERSION for a further package", s)
	}
	p := Package{Registry: reg, Name: rest}
	// A scoped npm name starts with @: the version's @ comes after it.
	if i := strings.LastIndex(rest, "@"); i > 0 {
		p.Name, p.Version = rest[:i], rest[i+1:]
	}
	if p.Name == "" || strings.ContainsAny(p.Name, " \t\n") {
		return Package{}, fmt.Errorf("package %q: bad name", s)
	}
	return p, nil
}
