package transpiler

import (
	"fmt"
	"strings"

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
