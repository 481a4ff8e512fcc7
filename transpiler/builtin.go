package transpiler

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/suggest"
)

// A BuiltinFactory makes a builtin transpiler from its options (name →
// value, from the configuration) and the names of the faults to inject. It
// returns an error for an unknown option or fault: a configuration error.
type BuiltinFactory func(options map[string]string, faults []string) (Transpiler, error)

// UnknownFaultError is the error of a BuiltinFactory asked for a fault it
// does not have.
type UnknownFaultError struct {
	Name  string
	Known []string // the faults it has, sorted
}

func (e *UnknownFaultError) Error() string {
	return fmt.Sprintf("unknown fault %q (known: %s)%s", e.Name, strings.Join(e.Known, ", "), suggest.DidYouMean(e.Name, e.Known))
}

// BuiltinInfo describes a registered builtin transpiler.
type BuiltinInfo struct {
	Name string
	Doc  string // first line: a one-line summary
}

var builtins struct {
	sync.RWMutex
	m map[string]builtin
}

type builtin struct {
	doc     string
	factory BuiltinFactory
}

// RegisterBuiltin makes a transpiler available by name, typically from the
// init function of the package that wraps it. It panics when the name is
// empty or already taken, or the factory is nil: those are programming
// errors.
func RegisterBuiltin(name, doc string, factory BuiltinFactory) {
	if name == "" || factory == nil {
		panic("transpiler: RegisterBuiltin needs a name and a factory")
	}
	builtins.Lock()
	defer builtins.Unlock()
	if _, dup := builtins.m[name]; dup {
		panic("transpiler: builtin " + name + " registered twice")
	}
	if builtins.m == nil {
		builtins.m = map[string]builtin{}
	}
	builtins.m[name] = builtin{doc: doc, factory: factory}
}

// Builtin makes the builtin transpiler registered under name.
func Builtin(name string, options map[string]string, faults []string) (Transpiler, error) {
	builtins.RLock()
	b, ok := builtins.m[name]
	builtins.RUnlock()
	if !ok {
		names := make([]string, 0)
		for _, info := range Builtins() {
			names = append(names, info.Name)
		}
		known := "none is registered"
		if len(names) > 0 {
			known = "known: " + strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("unknown builtin transpiler %q (%s)%s", name, known, suggest.DidYouMean(name, names))
	}
	t, err := b.factory(options, faults)
	if err != nil {
		return nil, fmt.Errorf("builtin transpiler %s: %w", name, err)
	}
	return t, nil
}

// Builtins lists the registered builtin transpilers sorted by name.
func Builtins() []BuiltinInfo {
	builtins.RLock()
	defer builtins.RUnlock()
	infos := make([]BuiltinInfo, 0, len(builtins.m))
	for name, b := range builtins.m {
		infos = append(infos, BuiltinInfo{Name: name, Doc: b.doc})
	}
	slices.SortFunc(infos, func(a, b BuiltinInfo) int { return strings.Compare(a.Name, b.Name) })
	return infos
}
