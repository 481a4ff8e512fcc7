package yamlrel

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"iter"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
)

// Limits of one evaluation of a template. A relation file is code from
// whoever wrote it (or shipped it in a bundle): a typo in a range bound, or
// a function asked for a terabyte, must end in an error at the template's
// position, not in a campaign that never ends or runs out of memory.
const (
	// maxSteps bounds the loop iterations and template calls of one
	// evaluation: every other action runs once per iteration or call, so
	// this bounds its work.
	maxSteps = 1_000_000
	// maxBytes bounds what an evaluation writes, and every string a
	// template function makes (as large as the largest input mcpt reads).
	maxBytes = 16 << 20
	// maxItems bounds the lists a template function makes.
	maxItems = 1 << 20
)

var (
	errSteps  = fmt.Errorf("the template takes over %d steps (loop iterations and template calls): is a range bound wrong?", maxSteps)
	errOutput = fmt.Errorf("the template writes over %d MiB", maxBytes>>20)
)

// tooLarge is the error of a function whose result would be over the limit.
func tooLarge(fn string, n int) error {
	return fmt.Errorf("%s: the result would take %d bytes, over the %d MiB a template value may take", fn, n, maxBytes>>20)
}

// evaluation is the state of one evaluation of a template: the steps it
// has taken, and the context it runs under.
type evaluation struct {
	steps int
	ctx   context.Context
}

// step counts a step, and stops the evaluation when it takes too many or
// its context is done (a campaign stopped by a signal or out of time).
func (e *evaluation) step() {
	e.steps++
	if e.steps > maxSteps {
		panic(template.ExecError{Err: errSteps})
	}
	if err := e.ctx.Err(); err != nil {
		panic(template.ExecError{Err: err})
	}
}

// instance is a template parsed with the functions of its own evaluation
// state. Each runs one evaluation at a time; a tmpl keeps a pool of them
// for the workers that evaluate it at once.
type instance struct {
	t  *template.Template
	ev *evaluation
}

// newInstance parses src with the template functions and the bounded
// range and template call of a new evaluation state.
func newInstance(p *instances) (*instance, error) {
	ev := &evaluation{}
	fm := template.FuncMap{
		rangeFunc[0]: ev.rangeOver(false),
		rangeFunc[1]: ev.rangeOver(true),
		stepFunc:     func(v ...any) any { ev.step(); return last(v) },
	}
	t, err := template.New(p.name).Funcs(funcs).Funcs(formFuncs(p.form)).Funcs(fm).Option("missingkey=error").Parse(p.src)
	if err != nil {
		return nil, err
	}
	for _, x := range t.Templates() {
		if x.Tree != nil {
			bound(x.Tree, x.Tree.Root)
			if p.groupRefs {
				expandRefs(x.Tree, x.Tree.Root)
			}
		}
	}
	return &instance{t: t, ev: ev}, nil
}

func last(v []any) any {
	if len(v) == 0 {
		return nil
	}
	return v[len(v)-1]
}

// The functions the parse tree is rewritten to call: a range over X
// becomes a range over X | _range1 (over _range2 with two variables), and
// a template call's argument passes through _step.
var rangeFunc = [2]string{"_range1", "_range2"}

const stepFunc = "_step"

// bound rewrites a parse tree so that every range iteration and template
// call counts a step of the evaluation.
func bound(tr *parse.Tree, root parse.Node) {
	walk(root, func(n parse.Node) {
		switch x := n.(type) {
		case *parse.RangeNode:
			fn := rangeFunc[0]
			if len(x.Pipe.Decl) > 1 {
				fn = rangeFunc[1]
			}
			x.Pipe.Cmds = append(x.Pipe.Cmds, call(tr, x.Pipe.Pos, fn))
		case *parse.TemplateNode:
			if x.Pipe == nil {
				x.Pipe = &parse.PipeNode{NodeType: parse.NodePipe, Pos: x.Pos, Line: x.Line}
			}
			x.Pipe.Cmds = append(x.Pipe.Cmds, call(tr, x.Pos, stepFunc))
		}
	})
}

// walk calls f with n, then with each node of the lists below it (the
// lists of if, with and range too): f may rewrite a list's nodes, which
// are walked as f leaves them.
func walk(n parse.Node, f func(parse.Node)) {
	if l, isList := n.(*parse.ListNode); isList && l == nil {
		return
	}
	f(n)
	switch x := n.(type) {
	case *parse.ListNode:
		for _, c := range x.Nodes {
			walk(c, f)
		}
	case *parse.IfNode:
		walk(x.List, f)
		walk(x.ElseList, f)
	case *parse.WithNode:
		walk(x.List, f)
		walk(x.ElseList, f)
	case *parse.RangeNode:
		walk(x.List, f)
		walk(x.ElseList, f)
	}
}

// call is the command of a pipeline that calls the function fn.
func call(tr *parse.Tree, pos parse.Pos, fn string) *parse.CommandNode {
	id := parse.NewIdentifier(fn).SetTree(tr).SetPos(pos)
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{id}}
}

// rangeOver returns the function a range's value goes through: it
// iterates over the value as text/template's range does, counting a step
// per iteration. A range over an integer larger than the steps left is an
// error before its first iteration.
func (e *evaluation) rangeOver(two bool) func(v any) (any, error) {
	return func(v any) (any, error) {
		rv := reflect.ValueOf(v)
		for (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) && !rv.IsNil() {
			rv = rv.Elem()
		}
		var n int64
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n = rv.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n = int64(min(rv.Uint(), maxSteps+1))
		case reflect.Slice, reflect.Array, reflect.Map, reflect.Invalid:
			return e.elements(rv, two), nil
		default:
			return nil, fmt.Errorf("range can't iterate over %v", v)
		}
		switch {
		case two:
			return nil, fmt.Errorf("can't use %v to iterate over more than one variable", v)
		case n > int64(maxSteps-e.steps):
			return nil, fmt.Errorf("range over %d: over the %d steps (loop iterations and template calls) a template may take", n, maxSteps)
		}
		return iter.Seq[any](func(yield func(any) bool) {
			for i := range int(n) {
				e.step()
				if !yield(i) {
					return
				}
			}
		}), nil
	}
}

// elements iterates over a list or a map (by sorted key), yielding its
// elements, or its indices or keys and elements (two).
func (e *evaluation) elements(rv reflect.Value, two bool) any {
	var keys []reflect.Value
	n := 0
	switch rv.Kind() {
	case reflect.Map:
		keys = rv.MapKeys()
		slices.SortFunc(keys, compareKeys)
		n = len(keys)
	case reflect.Slice, reflect.Array:
		n = rv.Len()
	}
	at := func(i int) (any, any) {
		if keys != nil {
			return keys[i].Interface(), rv.MapIndex(keys[i]).Interface()
		}
		return i, rv.Index(i).Interface()
	}
	if two {
		return iter.Seq2[any, any](func(yield func(any, any) bool) {
			for i := range n {
				e.step()
				if !yield(at(i)) {
					return
				}
			}
		})
	}
	return iter.Seq[any](func(yield func(any) bool) {
		for i := range n {
			e.step()
			if _, v := at(i); !yield(v) {
				return
			}
		}
	})
}

// compareKeys orders map keys as text/template does for the keys of the
// maps relations see: strings and numbers.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	}
	return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}

// boundedWriter is a strings.Builder that refuses to grow over maxBytes.
type boundedWriter struct{ strings.Builder }

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.Len()+len(p) > maxBytes {
		return 0, errOutput
	}
	return w.Builder.Write(p)
}

// instances is a pool of the instances of one template.
type instances struct {
	name, src string
	form      numlit.Form // how the functions read numbers (numbers:)
	groupRefs bool        // a substitute's with: its text may refer to groups (groups.go)
	pool      sync.Pool
}

// execute evaluates the template on data within the limits, until ctx is
// done.
func (p *instances) execute(ctx context.Context, data any) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	in, _ := p.pool.Get().(*instance)
	if in == nil {
		var err error
		if in, err = newInstance(p); err != nil {
			return "", err
		}
	}
	in.ev.steps, in.ev.ctx = 0, ctx
	var w boundedWriter
	err := in.t.Execute(&w, data)
	in.ev.ctx = nil
	p.pool.Put(in)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", err
	}
	return w.String(), nil
}

func checked(fn, s string) (string, error) {
	if len(s) > maxBytes {
		return "", tooLarge(fn, len(s))
	}
	return s, nil
}

// callPrefix is text/template's prefix of a function's error; the
// functions' messages name them.
var callPrefix = regexp.MustCompile(`^error calling [A-Za-z_][A-Za-z0-9_]*: `)

// execMessage is the message of an evaluation error, without the
// template's name and position (the relation file's position replaces
// them) and without the names of the functions bound adds.
func execMessage(err error) string {
	for _, e := range []error{errSteps, errOutput} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	msg := err.Error()
	if i := strings.Index(msg, ": executing "); i >= 0 {
		if j := strings.Index(msg[i:], ">: "); j >= 0 {
			msg = msg[i+j+3:]
		}
	}
	return callPrefix.ReplaceAllString(msg, "")
}
