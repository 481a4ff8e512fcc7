// Package jsshape is a semantic checker for transpilers that write
// JavaScript: it loads a module of o and of o′ in node and compares their
// runtime shapes (exports; enum objects in both directions; each class's
// static members with their values and descriptors in the order they were
// created, its prototype members, the own properties of an instance made
// with no arguments). o′'s must be o's plus exactly the members the
// mutation predicts. A transpiler bug that treats the new member as it
// treats its siblings keeps the text consistent; the member's value, its
// place among the static initialisers or a property that should not exist
// shows it at run time.
//
// The modules run in a persistent node worker (shape.js, embedded), in a
// fresh context per output tree with nothing of node's in it, require and
// import resolving only to the tree's files, under a time limit per module
// and node's permission model (package internal/nodeproc).
package jsshape

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpt-tool/mcpt/internal/nodeproc"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

//go:embed shape.js
var script string

// DefaultTimeout is the time limit of loading one module.
const DefaultTimeout = 5 * time.Second

// tookTooLong is in the error of a module that passed its time limit
// (shape.js says so).
const tookTooLong = "did not finish within the time limit"

// Check is the js-shape check of one follow-up.
type Check struct {
	// Name names the check in findings ("js-shape" when empty).
	Name string
	// File is the module whose shape is compared (its path in the output
	// tree); the modules it imports or requires are loaded with it.
	File string
	// Module says how .js files load: "esm", "commonjs", or "" (auto:
	// .mjs and .cjs by their extension, a .js file as CommonJS unless it
	// has import or export statements).
	Module string
	// Added are the members the mutation adds.
	Added []Member
	// Values are the JavaScript literals of the members' predicted
	// values, in the order of Added, "" for none: the worker evaluates
	// them, so that 0x10 and 16 are one value.
	Values []string
	// Timeout bounds the loading of each module (DefaultTimeout when 0).
	Timeout time.Duration
	// Node is the node program ("" finds node on PATH).
	Node string
	// Ignore, when set, leaves out of both shapes the members of a class,
	// a prototype, an instance or an object (not the exports) whose key
	// it matches: helpers a transpiler adds, such as sucrase's __init
	// methods, which it numbers across a module.
	Ignore *regexp.Regexp
}

// CheckerName implements relation.Named.
func (c *Check) CheckerName() string {
	if c.Name == "" {
		return "js-shape"
	}
	return c.Name
}

// Check runs the check; failures only (see DecideContext).
func (c *Check) Check(o, o2 tree.Tree) []oracle.Failure {
	return c.DecideContext(context.Background(), o, o2).Fails
}

// DecideContext loads File from o and o′ and compares the shapes. It
// cannot decide when node cannot run, when File does not load in o, or
// when a predicted member's holder is not in o's shape.
func (c *Check) DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict {
	name := c.CheckerName()
	undecided := func(format string, args ...any) oracle.Verdict {
		return oracle.Verdict{Undecided: []string{fmt.Sprintf(format, args...)}}
	}
	// found is what the check found of o′ when that is not the shape
	// (act): the error that kept it from loading.
	fail := func(msg, exp, act string, found string, diffs ...string) oracle.Verdict {
		f := oracle.Failure{Checker: name, File: c.File, Message: msg, Expected: exp, Actual: act}
		if exp != "" || act != "" {
			f.Diff = oracle.Diff(c.File, exp, act)
		}
		if found == "" {
			found = act
		}
		if len(diffs) == 0 {
			diffs = []string{msg}
		}
		f.Compared = &result.Compared{Kind: "js-shape", Expects: c.expects(), Expected: exp, Found: found, Differences: diffs}
		return oracle.Verdict{Fails: []oracle.Failure{f}}
	}
	if _, ok := o[c.File]; !ok {
		return undecided("%s is not in o", c.File)
	}
	if _, ok := o2[c.File]; !ok {
		return fail(fmt.Sprintf("%s is in o but not in o′", c.File), "", "", c.File+" is not in o′")
	}
	base, err := c.load(ctx, o, nil)
	if err != nil {
		return undecided("%s in o: %v", c.File, err)
	}
	if base.Error != "" {
		return undecided("%s does not load in o: %s", c.File, base.Error)
	}
	fu, err := c.load(ctx, o2, c.Values)
	var ce *nodeproc.CallError
	if errors.As(err, &ce) && ce.Timeout || err == nil && strings.Contains(fu.Error, tookTooLong) {
		fu, err = c.load(ctx, o2, c.Values) // once more: the machine may have been busy
	}
	switch {
	case errors.As(err, &ce):
		return fail(fmt.Sprintf("%s does not load in o′, it does in o: %v", c.File, err), "", "", err.Error())
	case err != nil:
		return undecided("%s in o′: %v", c.File, err)
	}
	members := slices.Clone(c.Added)
	for i, v := range fu.Values {
		if i >= len(members) || c.Values[i] == "" {
			continue
		}
		if v.T == "error" {
			return undecided("the predicted value %s of %s: %s", c.Values[i], members[i].Name, v.V)
		}
		members[i].Value = &v
	}
	baseShape, fuShape := base.Shape, fu.Shape
	if c.Ignore != nil {
		baseShape, fuShape = baseShape.without(c.Ignore), fuShape.without(c.Ignore)
	}
	pred, perr := predict(baseShape, members)
	if fu.Error != "" {
		exp := baseShape.Text()
		if perr == nil {
			exp = pred.Text()
		}
		return fail(fmt.Sprintf("%s does not load in o′, it does in o: %s", c.File, fu.Error), exp, "", "error: "+fu.Error)
	}
	if perr != nil {
		return undecided("%v", perr)
	}
	diffs := pred.compare(fuShape)
	if len(diffs) == 0 {
		return oracle.Verdict{}
	}
	msg := fmt.Sprintf("%s in o′ has not the runtime shape predicted: %s", c.File, diffs[0])
	if len(diffs) > 1 {
		msg += fmt.Sprintf(" (and %d more: %s)", len(diffs)-1, strings.Join(diffs[1:min(len(diffs), 6)], "; "))
	}
	return fail(msg, pred.Text(), fuShape.Text(), "", diffs...)
}

// expects says what the check predicts of File in o′.
func (c *Check) expects() string {
	var added []string
	for i, m := range c.Added {
		a := m.Name
		if m.Of != "" {
			a = m.Of + "." + m.Name
		}
		a += " (" + m.In.String() + ")"
		if i < len(c.Values) && c.Values[i] != "" {
			a += " = " + c.Values[i]
		}
		added = append(added, a)
	}
	ignore := ""
	if c.Ignore != nil {
		ignore = fmt.Sprintf(" (the members ignore matches, /%s/, left out of both)", c.Ignore)
	}
	return fmt.Sprintf("Loaded in node, %s of o′ has the runtime shape of %s of o (its exports, their members, the types and values of both)%s with the added members: %s.",
		c.File, c.File, ignore, strings.Join(added, ", "))
}

// loaded is what the worker said of one tree: File's shape or the error
// that kept it from loading, and the predicted values.
type loaded struct {
	Shape  *Shape
	Error  string
	Values []Value
}

type response struct {
	Modules []struct {
		File  string `json:"file"`
		Error string `json:"error"`
		Shape *Shape `json:"shape"`
	} `json:"modules"`
	Values []Value `json:"values"`
	Error  string  `json:"error"`
}

// load asks the worker for File's shape in t. A tree loaded before gives
// the shape it gave (the base of a seed is shared by its test cases).
func (c *Check) load(ctx context.Context, t tree.Tree, values []string) (*loaded, error) {
	files := map[string]string{}
	for name, b := range t {
		switch path.Ext(name) {
		case ".js", ".mjs", ".cjs":
			files[name] = string(b)
		}
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	req := map[string]any{"files": files, "entries": []string{c.File}, "module": c.Module, "timeout": timeout.Milliseconds(), "values": nonEmpty(values)}
	key := cacheKey(map[string]any{"node": c.Node, "request": req})
	if l, ok := cache.get(key); ok {
		return l, nil
	}
	var resp response
	// Beyond the worker's limit per module: the time of starting node.
	if err := pool(c.Node).Call(ctx, req, &resp, 2*timeout+10*time.Second); err != nil {
		return nil, err
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	if len(resp.Modules) != 1 {
		return nil, fmt.Errorf("the worker described %d modules, not 1", len(resp.Modules))
	}
	m := resp.Modules[0]
	l := &loaded{Shape: m.Shape, Error: m.Error}
	if l.Shape == nil && l.Error == "" {
		return nil, errors.New("the worker gave no shape")
	}
	if l.Shape == nil {
		l.Shape = &Shape{}
	}
	var k int
	for _, v := range values {
		if v == "" {
			l.Values = append(l.Values, Value{})
			continue
		}
		if k >= len(resp.Values) {
			return nil, errors.New("the worker evaluated too few values")
		}
		l.Values = append(l.Values, resp.Values[k])
		k++
	}
	if !strings.Contains(l.Error, tookTooLong) { // a busy machine's result is not kept
		cache.put(key, l)
	}
	return l, nil
}

func nonEmpty(ss []string) []string {
	out := []string{}
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func cacheKey(req map[string]any) [32]byte {
	b, _ := json.Marshal(req) // maps marshal in key order
	return sha256.Sum256(b)
}

// shapes is a small cache of the shapes of recent trees: the base output
// of a seed is loaded once for its test cases. What it holds is bounded
// by its number of entries.
type shapes struct {
	mu    sync.Mutex
	keys  [][32]byte
	byKey map[[32]byte]*loaded
}

const cacheSize = 32

var cache = &shapes{byKey: map[[32]byte]*loaded{}}

func (s *shapes) get(k [32]byte) (*loaded, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.byKey[k]
	return l, ok
}

func (s *shapes) put(k [32]byte, l *loaded) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byKey[k]; ok {
		return
	}
	if len(s.keys) >= cacheSize {
		delete(s.byKey, s.keys[0])
		s.keys = s.keys[1:]
	}
	s.keys = append(s.keys, k)
	s.byKey[k] = l
}

// pools are the worker pools, one per node program, started when a check
// first needs one and kept for the life of mcpt.
var (
	poolsMu sync.Mutex
	pools   = map[string]*nodeproc.Pool{}
)

func pool(node string) *nodeproc.Pool {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	p := pools[node]
	if p == nil {
		p = nodeproc.New(nodeproc.Config{Name: "js-shape worker", Node: node, Script: script, Flags: []string{"--experimental-vm-modules"}})
		pools[node] = p
	}
	return p
}

// Text renders a prediction as a shape, (any) for what it leaves open.
func (p *predicted) Text() string { return p.Shape.Text() }
