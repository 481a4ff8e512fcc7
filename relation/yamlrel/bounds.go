package yamlrel

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
	"text/template/parse"

	"github.com/mcpt-tool/mcpt/relation/numlit"
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

// evaluator evaluates templates, one at a time: a template holding the
// template functions, and the bounded range and step of its own
// evaluation state, that the templates it evaluates are associated with,
// so that they share its functions (a template of its own would copy
// them). Evaluators are pooled: each worker that evaluates at once takes
// one.
type evaluator struct {
	roots map[numlit.Form]*template.Template // one for each form of numbers (numbers:)
	fm    template.FuncMap
	ev    *evaluation
	tmpls map[*instances]*template.Template
}

var evaluators sync.Pool

// maxAssociated is how many templates an evaluator keeps associated
// before it is dropped for a new one: the relations loaded are many
// fewer, but a process that loads relations again and again (tests, a
// library user) must not keep the templates of every load.
const maxAssociated = 1 << 16

// evaluatorsMade counts the evaluators made, for the test that templates
// share them.
var evaluatorsMade atomic.Int64

func newEvaluator() *evaluator {
	evaluatorsMade.Add(1)
	ev := &evaluation{}
	fm := template.FuncMap{
		rangeFunc[0]: ev.rangeOver(false),
		rangeFunc[1]: ev.rangeOver(true),
		stepFunc:     func(v ...any) any { ev.step(); return last(v) },
	}
	return &evaluator{
		roots: map[numlit.Form]*template.Template{},
		fm:    fm,
		ev:    ev,
		tmpls: map[*instances]*template.Template{},
	}
}

// newTemplate is a template named name with the template functions, those
// that read numbers in the form f, and the evaluator's own.
func (e *evaluator) newTemplate(name string, f numlit.Form) *template.Template {
	return template.New(name).Funcs(funcs).Funcs(formFuncs(f)).Funcs(e.fm).Option("missingkey=error")
}

// template is p's template in e, associated on first use.
func (e *evaluator) template(p *instances) (*template.Template, error) {
	if t := e.tmpls[p]; t != nil {
		return t, nil
	}
	var t *template.Template
	var err error
	if len(p.trees) == 1 {
		root := e.roots[p.form]
		if root == nil {
			root = e.newTemplate("", p.form)
			e.roots[p.form] = root
		}
		t, err = root.AddParseTree(p.id, p.trees[p.name])
	} else {
		// A template that defines others has a namespace of its own:
		// the names it defines may be those another template defines.
		t = e.newTemplate(p.name, p.form)
		for _, name := range sortedKeys(p.trees) {
			if _, err = t.AddParseTree(name, p.trees[name]); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	e.tmpls[p] = t
	return t, nil
}

// prepare parses the template once for every evaluator and rewrites its
// trees: every range iteration and template call counts a step, and a
// substitute's with has its group references expanded. Evaluators share
// the trees, which evaluation only reads.
func (p *instances) prepare() {
	p.trees, p.err = parseTrees(p.name, p.src)
	for _, tr := range p.trees {
		bound(tr, tr.Root)
		if p.groupRefs {
			expandRefs(tr, tr.Root)
		}
	}
	p.id = fmt.Sprintf("%s#%d", p.name, instancesMade.Add(1))
}

var instancesMade atomic.Int64

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

// parseFuncs are the names a template may call, for the parser, which
// only checks that a function of the name exists: the template functions,
// text/template's own and those the rewriting of bound adds.
var parseFuncs = func() map[string]any {
	m := map[string]any{}
	for name, fn := range funcs {
		m[name] = fn
	}
	for _, name := range append(goBuiltins, rangeFunc[0], rangeFunc[1], stepFunc) {
		m[name] = func() {}
	}
	return m
}()

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

// instances is how one template is evaluated: its trees, rewritten for
// the limits, and its name in the evaluators.
type instances struct {
	name, src string
	form      numlit.Form // how the functions read numbers (numbers:)
	groupRefs bool        // a substitute's with: its text may refer to groups (groups.go)
	once      sync.Once
	trees     map[string]*parse.Tree
	err       error
	id        string // its name among the templates of an evaluator
	// evaluations counts the template's evaluations, for the tests of
	// what is evaluated once.
	evaluations atomic.Int64
}

// execute evaluates the template on data within the limits, until ctx is
// done.
func (p *instances) execute(ctx context.Context, data any) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	p.once.Do(p.prepare)
	if p.err != nil {
		return "", p.err
	}
	p.evaluations.Add(1)
	e, _ := evaluators.Get().(*evaluator)
	if e == nil {
		e = newEvaluator()
	}
	t, err := e.template(p)
	if err != nil {
		evaluators.Put(e)
		return "", err
	}
	e.ev.steps, e.ev.ctx = 0, ctx
	var w boundedWriter
	err = t.Execute(&w, data)
	e.ev.ctx = nil
	if len(e.tmpls) < maxAssociated {
		evaluators.Put(e)
	}
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
