package cgen

import (
	"errors"
	"fmt"
	"sort"
)

// Fault is a seeded defect of the generator, off by default and switched on
// by name: each one is a realistic silent bug (the output still compiles)
// whose effect depends on the shape of the program, so that a metamorphic
// relation inserting one declaration can reveal it.
type Fault struct {
	Name string
	Doc  string // one line
}

// The names of the seeded faults.
const (
	FaultReverseEnums    = "reverse-enums"
	FaultDropLastGetter  = "drop-last-getter"
	FaultSortedResets    = "sorted-resets"
	FaultCountOffByOne   = "count-off-by-one"
	FaultSkipSecondTick  = "skip-second-tick"
	FaultSkipThirdClear  = "skip-third-clear"
	FaultResetEnumByName = "reset-enum-by-name"
	FaultAttrEscape      = "attr-escape"
	FaultParamsGrouped   = "params-grouped"
)

var faults = []Fault{
	{FaultReverseEnums, "enumerators of the states and of every enumeration, and their name-table entries, are emitted in reverse declaration order"},
	{FaultDropLastGetter, "with more than three configuration parameters, the getter definition of the last one is missing from p_config.c"},
	{FaultSortedResets, "the variable resets of p_init are sorted by variable name instead of declaration order"},
	{FaultCountOffByOne, "the _COUNT define of an enumeration with more than four values is one too large"},
	{FaultSkipSecondTick, "the end-of-cycle function has no tick line for the second timer, which therefore never expires"},
	{FaultSkipThirdClear, "the end-of-cycle function has no clear line for the third input event, which therefore stays raised"},
	{FaultResetEnumByName, "an enumeration variable without initial value is reset to its first value by name instead of by ordinal"},
	{FaultAttrEscape, "the \\n and \\t escapes of String attributes are written with a doubled backslash"},
	{FaultParamsGrouped, "the initialisers of p_config list the Boolean parameters before the Integer ones"},
}

func init() {
	sort.Slice(faults, func(i, j int) bool { return faults[i].Name < faults[j].Name })
}

// Faults returns the seeded faults, sorted by name.
func Faults() []Fault {
	return append([]Fault(nil), faults...)
}

// ErrUnknownFault is wrapped by the error for a fault name that names no
// seeded fault.
var ErrUnknownFault = errors.New("unknown fault")

// CheckFaults returns an error wrapping ErrUnknownFault for the first name
// that names no seeded fault, and nil when all are known.
func CheckFaults(names ...string) error {
	_, err := newFaultSet(names)
	return err
}

// faultSet is the set of faults switched on for one generation.
type faultSet map[string]bool

func newFaultSet(names []string) (faultSet, error) {
	set := faultSet{}
	for _, n := range names {
		known := false
		for _, f := range faults {
			if f.Name == n {
				known = true
				break
			}
		}
		if !known {
			return nil, fmt.Errorf("%w %q", ErrUnknownFault, n)
		}
		set[n] = true
	}
	return set, nil
}
