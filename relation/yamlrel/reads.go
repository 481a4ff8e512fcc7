package yamlrel

import (
	"context"
	"fmt"
	"maps"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// readYAML reads a value from the base output o: the first group of the
// last matcher of a path, on the line the path finds in file (by default
// the difference check's file).
type readYAML struct {
	Name String        `yaml:"name"`
	File *String       `yaml:"file"`
	At   []matcherYAML `yaml:"at"`
	In   *String       `yaml:"in"` // o (the default) or o2, the follow-up's output
}

// readT reads one value of the base output o (or of the follow-up's, o′)
// for a difference check: the length or offset that a generator wrote and
// that the prediction computes from (.o.NAME, or .o2.NAME for o′).
type readT struct {
	name string
	o2   bool  // read from o′
	file *tmpl // nil: the check's file
	path []matcherT
}

func compileReads(u *unit, rys []readYAML) ([]readT, error) {
	var out []readT
	seen := map[string]bool{}
	for _, ry := range rys {
		if !identRE.MatchString(ry.Name.Value) {
			return nil, ry.Name.At("read: name %q is not an identifier", ry.Name.Value)
		}
		r := readT{name: ry.Name.Value}
		if ry.In != nil {
			switch ry.In.Value {
			case "o":
			case "o2":
				r.o2 = true
			default:
				return nil, ry.In.At("read %s: in is o or o2, found %q", ry.Name.Value, ry.In.Value)
			}
		}
		if seen[ry.Name.Value] {
			return nil, ry.Name.At("read: %s read twice", ry.Name.Value)
		}
		seen[ry.Name.Value] = true
		if len(ry.At) == 0 || !ry.At[len(ry.At)-1].Re {
			return nil, ry.Name.At("read %s: at is a path whose last matcher is {re: …} with a group", ry.Name.Value)
		}
		var err error
		if ry.File != nil {
			if r.file, err = u.template(*ry.File); err != nil {
				return nil, err
			}
		}
		if r.path, err = compileMatchers(u, ry.At); err != nil {
			return nil, err
		}
		out = append(out, r)
		u.reads = append(u.reads, r)
	}
	return out, nil
}

// readingDiff is a difference check whose edits use values of o: it is
// rendered when it checks, o at hand. A value o does not have fails the
// check, as an anchor o does not have does.
type readingDiff struct {
	dt   *diffT
	data map[string]any
	name string // as the check rendered it
}

// Check is CheckContext that the end of no context stops.
func (rd *readingDiff) Check(o, o2 tree.Tree) []oracle.Failure {
	return rd.CheckContext(context.Background(), o, o2)
}

// CheckContext reads the values, renders the difference check and runs
// it; its templates stop when ctx is done.
func (rd *readingDiff) CheckContext(ctx context.Context, o, o2 tree.Tree) []oracle.Failure {
	name, file := "", ""
	fail := func(err error) []oracle.Failure {
		if name == "" {
			name = "difference:" + file
		}
		return []oracle.Failure{{Checker: name, File: file, Message: err.Error()}}
	}
	data := maps.Clone(rd.data)
	var err error
	if file, err = rd.dt.file.render(ctx, data); err != nil {
		return fail(err)
	}
	rd.name = "difference:" + file // for CheckerName, as it renders it
	if file, err = oracle.FindFile(file, o); err != nil {
		return fail(err)
	}
	if rd.dt.name != nil {
		if name, err = rd.dt.name.render(ctx, data); err != nil {
			return fail(err)
		}
		if name != "" {
			rd.name = name
		}
	}
	vals, vals2 := map[string]any{}, map[string]any{}
	for _, r := range rd.dt.reads {
		from, to := o, vals
		if r.o2 {
			from, to = o2, vals2
		}
		v, err := r.read(ctx, data, from, file)
		if err != nil {
			return fail(err)
		}
		to[r.name] = v
	}
	data["o"], data["o2"] = vals, vals2
	d, err := rd.dt.instantiate(ctx, data)
	if err != nil {
		return fail(err)
	}
	return d.Check(o, o2)
}

// read finds the value in o.
func (r readT) read(ctx context.Context, data map[string]any, o tree.Tree, file string) (string, error) {
	if r.file != nil {
		var err error
		if file, err = r.file.render(ctx, data); err != nil {
			return "", err
		}
	}
	in := "o"
	if r.o2 {
		in = "o′"
	}
	content, ok := o[file]
	if !ok {
		return "", fmt.Errorf("read %s: %s is missing from %s", r.name, file, in)
	}
	var path []oracle.Matcher
	for _, mt := range r.path {
		m, err := mt.matcher(ctx, data)
		if err != nil {
			return "", err
		}
		path = append(path, m)
	}
	lines, _ := oracle.SplitLines(string(content))
	a := oracle.Anchor{Path: path}
	i := a.Find(lines)
	if i < 0 {
		return "", fmt.Errorf("read %s: no line of %s in %s is %s", r.name, file, in, a.String()[len("after "):])
	}
	last := path[len(path)-1].Re
	sm := last.FindStringSubmatch(lines[i])
	if len(sm) < 2 {
		return "", fmt.Errorf("read %s: %s has no group", r.name, last)
	}
	return sm[1], nil
}

// CheckerName is the name its failures carry: the check's name, or
// difference:FILE.
func (rd *readingDiff) CheckerName() string {
	if rd.name != "" {
		return rd.name
	}
	ctx := context.Background() // a name: a template of no loop, in practice
	data := maps.Clone(rd.data)
	if rd.dt.name != nil {
		if name, err := rd.dt.name.render(ctx, data); err == nil && name != "" {
			return name
		}
	}
	file, _ := rd.dt.file.render(ctx, data)
	return "difference:" + file
}
