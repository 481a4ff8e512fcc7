package yamlrel

// The golden tests: each archive testdata/**/*.txtar (golang.org/x/tools/txtar)
// holds relation files, seeds and, in its want section, what loading the
// relations and running them on the seeds must print, as analysistest
// holds a package with its expected diagnostics. go test -run TestGolden
// UPDATE_GOLDEN=1 writes the want sections from what the code prints now: review
// the diff before committing it.
//
// An archive reads:
//
//	# Lines of the comment that start with # say what the case is about.
//	load pack/rel.yaml      the relation files to load together (default rel.yaml);
//	load bad.yaml           a second load line is a second load, on its own
//	generic name id         Options.Generic: the transpiler's own words
//	mutate 2 3              the spots to mutate on every seed, or all (default none)
//	seed 7                  the seed of the random choices (default 1), see relationtest.Rand
//	bindings N prev.timer   the bindings to print (default all)
//	-- rel.yaml --
//	any file that is none of those below: relation files, the files they
//	include, grammars; loaded from an fs.FS, by the names of load
//	-- seeds/door.cll --
//	a seed, named door.cll; every relation runs on every seed
//	-- o/door.h --
//	a file of o, the output of the seed (with mutate)
//	-- o2/door.h --
//	a file of o′, the output of the follow-up: its name and content are
//	templates over the follow-up's bindings ({{.N}}, {{snake .prev.timer}});
//	o2.NAME/ is another o′ (a broken one), checked on its own against
//	o.NAME/ when the archive has one (an o broken by hand), else o/
//	-- want --
//	what the case prints (see below)
//
// Each load prints, after a line "== load FILES" when the archive has
// several, its warnings ("warning: file:line:col: message"). When loading
// fails, want then holds the error exactly as printed, one
// file:line:col: message per line. Otherwise it holds, for each relation,
// each seed's spots (index, line:col, description) or the error of its
// spots, then for each mutated spot the error of the mutation or its
// bindings, the follow-up as a diff from the seed, the instantiated checks
// and, when the archive has an o/, the findings of the checks on o and each
// o′ ("no findings" when they pass), each with its diff from the
// prediction to o′ when it has one.
//
// Every case can fail: the want section is compared whole.

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/aymanbagabas/go-udiff"
	"golang.org/x/tools/txtar"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/tree"
)

// The names of an archive's files that are not relation files.
const (
	wantFile    = "want"
	seedsDir    = "seeds/"
	outDir      = "o"
	out2Dir     = "o2"
	allSpots    = -1
	defaultLoad = "rel.yaml"
)

// goldenCase is an archive read.
type goldenCase struct {
	file     string
	archive  *txtar.Archive
	loads    [][]string
	generic  []string
	mutate   []int // spot indices; allSpots for every spot
	seed     uint64
	bindings []string // nil for all
	fsys     fstest.MapFS
	seeds    []relation.Input
	o        map[string]tree.Tree // by directory: o, o.NAME
	o2       map[string]tree.Tree // by directory: o2, o2.NAME
	want     *txtar.File
}

func TestGolden(t *testing.T) {
	var files []string
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".txtar") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(file, "testdata"+string(filepath.Separator))), ".txtar")
		t.Run(name, func(t *testing.T) {
			c, err := readGolden(file)
			if err != nil {
				t.Fatal(err)
			}
			got := trimSpaces(c.run(t))
			if update() {
				c.setWant(got)
				if err := os.WriteFile(file, txtar.Format(c.archive), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if c.want == nil {
				t.Fatalf("%s: no want section (UPDATE_GOLDEN=1 go test -run TestGolden writes it)", file)
			}
			if want := string(c.want.Data); got != want {
				t.Errorf("%s: from the want section to what the relations print (UPDATE_GOLDEN=1 go test -run TestGolden rewrites it):\n%s",
					file, udiff.Unified("want", "got", want, got))
			}
		})
	}
}

// readGolden reads the archive in file.
func readGolden(file string) (*goldenCase, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	c := &goldenCase{file: file, archive: a, seed: 1, fsys: fstest.MapFS{}}
	if err := c.directives(); err != nil {
		return nil, err
	}
	if len(c.loads) == 0 {
		c.loads = [][]string{{defaultLoad}}
	}
	for i := range a.Files {
		f := &a.Files[i]
		dir, rest, _ := strings.Cut(f.Name, "/")
		switch {
		case f.Name == wantFile:
			c.want = f
		case strings.HasPrefix(f.Name, seedsDir):
			c.seeds = append(c.seeds, relation.Input{Name: strings.TrimPrefix(f.Name, seedsDir), Src: f.Data})
		case isOut(dir, outDir):
			c.o = addFile(c.o, dir, rest, f.Data)
		case isOut(dir, out2Dir):
			c.o2 = addFile(c.o2, dir, rest, f.Data)
		default:
			c.fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
	}
	for dir := range c.o {
		if _, ok := c.o2[out2Dir+strings.TrimPrefix(dir, outDir)]; !ok && dir != outDir {
			return nil, fmt.Errorf("%s: %s/ and no o′ to compare it with: o2%s/", file, dir, strings.TrimPrefix(dir, outDir))
		}
	}
	if c.o[outDir] != nil && c.o2 == nil {
		return nil, fmt.Errorf("%s: o/ and no o′ to compare it with: o2/ or o2.NAME/", file)
	}
	for dir := range c.o2 {
		if c.base(dir) == nil {
			return nil, fmt.Errorf("%s: %s/ and no o to compare it with: o.NAME/ or o/", file, dir)
		}
	}
	switch {
	case c.o != nil && c.mutate == nil:
		return nil, fmt.Errorf("%s: o/ and o2/ and no spot to mutate: add a mutate line", file)
	case c.mutate != nil && len(c.seeds) == 0:
		return nil, fmt.Errorf("%s: a mutate line and no seeds/ file", file)
	}
	return c, nil
}

// directives reads the comment of the archive.
func (c *goldenCase) directives() error {
	return relationtest.Directives(c.file, c.archive.Comment, func(key, val string) error {
		args := strings.Fields(val)
		var err error
		switch key {
		case "load":
			if len(args) == 0 {
				err = fmt.Errorf("load names relation files")
			}
			c.loads = append(c.loads, args)
		case "generic":
			c.generic = append(c.generic, args...)
		case "bindings":
			c.bindings = append(c.bindings, args...)
		case "seed":
			c.seed, err = strconv.ParseUint(val, 10, 64)
		case "mutate":
			for _, a := range args {
				i, aerr := strconv.Atoi(a)
				switch {
				case a == "all":
					i = allSpots
				case aerr != nil || i < 0:
					return fmt.Errorf("mutate takes spot indices or all, not %q", a)
				}
				c.mutate = append(c.mutate, i)
			}
		default:
			err = fmt.Errorf("unknown line %q (want load, generic, mutate, seed or bindings; # starts a comment)", strings.TrimSpace(key+" "+val))
		}
		return err
	})
}

// setWant puts text in the want section, adding the section if need be.
func (c *goldenCase) setWant(text string) {
	if c.want == nil {
		c.archive.Files = append(c.archive.Files, txtar.File{Name: wantFile})
		c.want = &c.archive.Files[len(c.archive.Files)-1]
	}
	c.want.Data = []byte(text)
}

// run loads the relations and runs them on the seeds, and returns what
// the case prints.
func (c *goldenCase) run(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, load := range c.loads {
		if len(c.loads) > 1 {
			fmt.Fprintf(&b, "== load %s\n", strings.Join(load, " "))
		}
		c.runLoad(t, &b, load)
	}
	return b.String()
}

// runLoad loads the relation files names and runs the relations on the
// seeds.
func (c *goldenCase) runLoad(t *testing.T, b *strings.Builder, names []string) {
	warn := func(w string) { fmt.Fprintf(b, "warning: %s\n", w) }
	rels, err := LoadWith(Options{Generic: c.generic, Warn: warn, Parsers: tsParsers}, c.fsys, names...)
	if err != nil {
		fmt.Fprintln(b, err)
		return
	}
	for _, r := range rels {
		fmt.Fprintf(b, "relation %s\n", r.Name)
		for _, in := range c.seeds {
			c.runSeed(t, b, r, in)
		}
	}
}

// runSeed prints r's spots on in and the follow-ups of those mutated.
func (c *goldenCase) runSeed(t *testing.T, b *strings.Builder, r *relation.Relation, in relation.Input) {
	spots, err := r.Spots(t.Context(), in)
	if err != nil {
		fmt.Fprintf(b, "  %s: spots: %v\n", in.Name, err)
		return
	}
	fmt.Fprintf(b, "  %s: %d spots\n", in.Name, len(spots))
	for _, s := range spots {
		fmt.Fprintf(b, "    %d %d:%d %s\n", s.Index, s.Line, s.Col, s.Desc)
	}
	for _, i := range c.mutate {
		if i == allSpots {
			for _, s := range spots {
				c.runSpot(t, b, r, in, s)
			}
			continue
		}
		if i >= len(spots) {
			fmt.Fprintf(b, "  %s spot %d: no such spot\n", in.Name, i)
			continue
		}
		c.runSpot(t, b, r, in, spots[i])
	}
}

// runSpot prints the follow-up of r's mutation of in at s.
func (c *goldenCase) runSpot(t *testing.T, b *strings.Builder, r *relation.Relation, in relation.Input, s relation.Spot) {
	fmt.Fprintf(b, "  %s spot %d (%s):\n", in.Name, s.Index, s.Desc)
	fu, err := r.Mutate(t.Context(), in, s, relationtest.Rand(c.seed, s))
	if err != nil {
		fmt.Fprintf(b, "    error: %v\n", err)
		return
	}
	names := c.bindings
	if names == nil {
		names = slices.Sorted(maps.Keys(fu.Bindings))
	}
	for _, k := range names {
		v, ok := fu.Bindings[k]
		if !ok {
			fmt.Fprintf(b, "    %s: no such binding\n", k)
			continue
		}
		fmt.Fprintf(b, "    %s = %s\n", k, indentMore(v, "      "))
	}
	if a, z := string(in.Src), string(fu.Src); a != z {
		diff, err := udiff.ToUnifiedDiff("seed", "follow-up", a, udiff.Lines(a, z), 1)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(b, "    follow-up:\n%s", indent(strings.TrimPrefix(diff.String(), "--- seed\n+++ follow-up\n"), "      "))
	} else {
		fmt.Fprintf(b, "    follow-up: the seed\n")
	}
	fmt.Fprintf(b, "    checks:\n")
	for _, ch := range fu.Checks {
		fmt.Fprintf(b, "      %s\n", describeCheck(ch))
	}
	if c.o == nil {
		return
	}
	for _, dir := range slices.Sorted(maps.Keys(c.o2)) {
		o2, err := c.render(t, c.o2[dir], fu.Bindings)
		if err != nil {
			t.Fatalf("%s: %s/: %v", c.file, dir, err)
		}
		fails := fu.Check(c.base(dir), o2)
		if len(fails) == 0 {
			fmt.Fprintf(b, "    %s: no findings\n", dir)
			continue
		}
		fmt.Fprintf(b, "    %s:\n", dir)
		for _, f := range fails {
			fmt.Fprintf(b, "      %s %s: %s\n", f.Checker, f.File, indentMore(f.Message, "        "))
			if _, hunks, ok := strings.Cut(f.Diff, "\n@@"); ok {
				fmt.Fprint(b, indent("@@"+hunks, "        "))
			}
		}
	}
}

// isOut says whether dir is an output directory named prefix or
// prefix.NAME.
func isOut(dir, prefix string) bool {
	return dir == prefix || strings.HasPrefix(dir, prefix+".")
}

// addFile adds a file to the tree of dir in trees.
func addFile(trees map[string]tree.Tree, dir, name string, data []byte) map[string]tree.Tree {
	if trees == nil {
		trees = map[string]tree.Tree{}
	}
	if trees[dir] == nil {
		trees[dir] = tree.Tree{}
	}
	trees[dir][name] = data
	return trees
}

// base is the o that the o′ in directory dir is compared with: o.NAME
// for o2.NAME when the archive has it, else o.
func (c *goldenCase) base(dir string) tree.Tree {
	if o, ok := c.o[outDir+strings.TrimPrefix(dir, out2Dir)]; ok {
		return o
	}
	return c.o[outDir]
}

// render evaluates the names and contents of the files of o2 as
// templates over the bindings.
func (c *goldenCase) render(t *testing.T, o2 tree.Tree, bindings map[string]string) (tree.Tree, error) {
	data := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(bindings)) {
		// prev.timer is .prev.timer: a map in a map; a binding that is
		// also a prefix of others (T and T.idl) is the map.
		m, path := data, strings.Split(k, ".")
		for _, p := range path[:len(path)-1] {
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		if _, ok := m[path[len(path)-1]].(map[string]any); !ok {
			m[path[len(path)-1]] = bindings[k]
		}
	}
	eval := func(s string) (string, error) {
		tm, err := mkTmpl(yamlpos.String{Value: s})
		if err != nil {
			return "", err
		}
		return tm.render(t.Context(), data)
	}
	out := tree.Tree{}
	for name, data := range o2 {
		n, err := eval(name)
		if err != nil {
			return nil, err
		}
		d, err := eval(string(data))
		if err != nil {
			return nil, err
		}
		out[n] = []byte(d)
	}
	return out, nil
}

// describeCheck is one line that says what an instantiated check is.
func describeCheck(ch relation.Checker) string {
	names := func(ns []oracle.Name) string {
		var s []string
		for _, n := range ns {
			s = append(s, n.String())
		}
		return strings.Join(s, ", ")
	}
	named := func(kind, name string) string {
		if name == "" || name == kind {
			return kind
		}
		return kind + " " + name
	}
	switch c := ch.(type) {
	case *oracle.Equivalence:
		if len(c.Except) == 0 {
			return named("equivalence", c.Name)
		}
		return fmt.Sprintf("%s except %q", named("equivalence", c.Name), c.Except)
	case *oracle.Difference:
		return fmt.Sprintf("%s of %s, %d edits", named("difference", c.Name), c.File, len(c.Edits))
	case *oracle.Creation:
		return fmt.Sprintf("%s: %s %q", named("created", c.Name), c.File, c.Content)
	case *oracle.Blocks:
		return fmt.Sprintf("%s of %s: %q", named("blocks", c.Name), c.File, c.Blocks)
	case *oracle.Locality:
		count := func(n int) string {
			if n == oracle.Any {
				return "any"
			}
			return strconv.Itoa(n)
		}
		return fmt.Sprintf("%s: fresh %s, files %q except %q, numbers %s, punctuation %s, grows %v",
			named("locality", c.Name), names(c.Fresh), c.Files, c.Except, count(c.Numbers), count(c.Punctuation), c.Grows)
	case *oracle.Order:
		ignore := ""
		if c.Ignore != nil {
			ignore = ", ignore " + c.Ignore.String()
		}
		return fmt.Sprintf("%s: %s between %q and %q, places %v, not %v%s; forms %s",
			named("order", c.Name), c.New, c.Prev.String(), c.Next.String(), c.Places, c.NotPlaces, ignore, strings.Join(c.New.Forms, " "))
	case *oracle.Analogy:
		var rs []string
		for _, r := range c.Renames {
			rs = append(rs, r.From.String()+" → "+r.To.String())
		}
		return fmt.Sprintf("%s: %s", named("analogy", c.Name), strings.Join(rs, ", "))
	case *readingDiff:
		return "difference, rendered when it reads its values from the outputs"
	case *lateCheck:
		return c.c.name + ", rendered when it finds its files in o"
	}
	if s, ok := ch.(fmt.Stringer); ok {
		return s.String() // a kind's own checker, which says what it checks
	}
	return fmt.Sprintf("%T", ch)
}

// trimSpaces removes the spaces at the end of the lines of s, which
// editors remove from the archives.
func trimSpaces(s string) string {
	lines, nl := oracle.SplitLines(s)
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return oracle.JoinLines(lines, nl)
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	lines, nl := oracle.SplitLines(s)
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return oracle.JoinLines(lines, nl)
}

// indentMore puts prefix before every line of s but the first.
func indentMore(s, prefix string) string {
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}
