package relation

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/release"
)

// Supports is what a relation pack says it holds for: the releases of the
// transpiler and, per dimension of flags, the values it knows. Its
// relations predict what those releases write under those flags; under
// others they would raise false alarms, so a campaign outside them stops
// before any test case.
type Supports struct {
	// Source says where the pack says so ("relations/ts.defs.yaml:14:3").
	Source string
	// Releases are the releases it holds for; the zero Range, every one.
	Releases release.Range
	// Flags are, per dimension, the value names it knows; a dimension it
	// does not list it does not know. Nil: any flags.
	Flags map[string][]string
	// ValueReleases are, per dimension and value, the releases that take
	// the value, for a value that some releases of the range lack (an
	// option added or removed by a release); a value without an entry is
	// taken by every release the pack supports.
	ValueReleases map[string]map[string]release.Range
}

// TakesValue tells whether the release v (as a version command printed
// it) takes the value value of the flag dimension dim, as the pack says;
// an error when the pack names releases for the value and v is unknown
// ("") or no version.
func (s *Supports) TakesValue(dim, value, v string) (bool, error) {
	r, ok := s.ValueReleases[dim][value]
	if !ok || r.IsZero() {
		return true, nil
	}
	if v == "" {
		return false, fmt.Errorf("the pack supports %s=%s for releases %s only, and the release of the transpiler is not known: give transpiler.version, the command that prints it", dim, value, r)
	}
	ver, err := release.Parse(v)
	if err != nil {
		return false, err
	}
	return r.Contains(ver), nil
}

// CheckRelease says why the pack does not hold for the release v (as a
// version command printed it), nil when it does. A pack that names its
// releases cannot tell an unknown release ("").
func (s *Supports) CheckRelease(v string) error {
	if s.Releases.IsZero() {
		return nil
	}
	if v == "" {
		return fmt.Errorf("the pack supports releases %s, and the release of the transpiler is not known: give transpiler.version, the command that prints it", s.Releases)
	}
	ver, err := release.Parse(v)
	if err != nil {
		return err
	}
	if !s.Releases.Contains(ver) {
		return fmt.Errorf("release %s of the transpiler is not supported by the pack, which supports %s", v, s.Releases)
	}
	return nil
}

// CheckFlag says why the pack does not know the value value of the flag
// dimension dim, nil when it does.
func (s *Supports) CheckFlag(dim, value string) error {
	if s.Flags == nil {
		return nil
	}
	values, ok := s.Flags[dim]
	if !ok {
		dims := slices.Sorted(maps.Keys(s.Flags))
		known := "none"
		if len(dims) > 0 {
			known = strings.Join(dims, ", ")
		}
		return fmt.Errorf("flag %s is not supported by the pack, which knows the flags %s%s", dim, known, suggest.DidYouMean(dim, dims))
	}
	if !slices.Contains(values, value) {
		return fmt.Errorf("%s=%s is not supported by the pack, which knows %s %s%s", dim, value, dim, strings.Join(values, ", "), suggest.DidYouMean(value, values))
	}
	return nil
}
