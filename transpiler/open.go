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
		tr = WithTimeout(tr, s.Timeout)
	}
	return tr, nil
}

// ProcessCommand is the Command that runs the process p: the one
// description of a process that commands and workers share.
func ProcessCommand(p spec.Process) Command {
	return Command{
		Argv: p.Argv, Dir: p.Dir, Env: p.Env, Timeout: p.Timeout,
		Accept: p.Accept, Reject: p.Reject, InputName: p.InputName,
		MaxOutputFiles: p.MaxOutputFiles, MaxOutputBytes: p.MaxOutputBytes,
	}
}

func openCommand(s spec.Spec, _ BuiltinSet) (Transpiler, error) {
	return NewCommand(ProcessCommand(s.Process))
}

func openWorker(s spec.Spec, _ BuiltinSet) (Transpiler, error) {
	c := ProcessCommand(s.Process)
	w, err := NewWorker(Worker{
		Argv: c.Argv, Arguments: s.Arguments, MaxRequests: s.WorkerRequests,
		Dir: c.Dir, Env: c.Env, Timeout: c.Timeout, Accept: c.Accept, Reject: c.Reject,
		InputName: c.InputName, MaxOutputFiles: c.MaxOutputFiles, MaxOutputBytes: c.MaxOutputBytes,
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}
