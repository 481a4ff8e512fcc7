package transpiler

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// BuiltinSet are the builtin transpilers a program offers its
// configurations, by name: the only way a builtin reaches them.
type BuiltinSet map[string]BuiltinFactory

// Names lists the builtins of b, sorted.
func (b BuiltinSet) Names() []string { return slices.Sorted(maps.Keys(b)) }

// opener makes the transpiler a spec of its kind describes.
type opener func(s spec.Spec, builtins BuiltinSet) (Transpiler, error)

// kinds are the kinds of transpiler and how each opens: a kind is one
// adapter and one line here.
var kinds = map[spec.Kind]opener{
	spec.Builtin: openBuiltin,
	spec.Command: openCommand,
	spec.Worker:  openWorker,
	spec.HTTP:    openHTTP,
}

// Kinds lists the kinds of transpiler, sorted.
func Kinds() []string {
	var ks []string
	for k := range kinds {
		ks = append(ks, string(k))
	}
	slices.Sort(ks)
	return ks
}

// Open makes the transpiler s describes; a builtin is looked up in
// builtins. A transpiler with a timeout
// (every kind but a process, which enforces its own) is bounded by it.
func Open(s spec.Spec, builtins BuiltinSet) (Transpiler, error) {
	open, ok := kinds[s.Kind]
	if !ok {
		return nil, fmt.Errorf("unknown kind of transpiler %q (want one of %s)", s.Kind, strings.Join(Kinds(), ", "))
	}
	return open(s, builtins)
}

func openBuiltin(s spec.Spec, builtins BuiltinSet) (Transpiler, error) {
	f := builtins[s.Builtin]
	if f == nil {
		names := builtins.Names()
		known := "this mcpt has none"
		if len(names) > 0 {
			known = "known: " + strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("unknown builtin transpiler %q (%s)%s", s.Builtin, known, suggest.DidYouMean(s.Builtin, names))
	}
	tr, err := f(s.Options, s.Faults)
	if err != nil {
		return nil, fmt.Errorf("builtin transpiler %s: %w", s.Builtin, err)
	}
	if s.Timeout > 0 {
		fc, checks := tr.(FlagChecker)
		tr = WithTimeout(tr, s.Timeout)
		if checks {
			tr = flagChecking{tr, fc}
		}
	}
	return tr, nil
}

// FlagChecker is a transpiler that tells, before any run, whether it takes
// the flags of a combination (Request.Flags): a builtin, which reads them
// itself. A campaign asks it about each of its combinations at start.
type FlagChecker interface {
	CheckFlags(flags []string) error
}

// flagChecking is a transpiler wrapped (WithTimeout) that still tells
// which flags it takes.
type flagChecking struct {
	Transpiler
	check FlagChecker
}

func (f flagChecking) CheckFlags(flags []string) error { return f.check.CheckFlags(flags) }

func openCommand(s spec.Spec, _ BuiltinSet) (Transpiler, error) {
	return NewCommand(Command{Process: s.Process})
}

func openWorker(s spec.Spec, _ BuiltinSet) (Transpiler, error) {
	w, err := NewWorker(Worker{Command: Command{Process: s.Process}, Arguments: s.Arguments, MaxRequests: s.WorkerRequests})
	if err != nil {
		return nil, err
	}
	return w, nil
}
