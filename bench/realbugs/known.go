package realbugs

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/release"
	"github.com/mcpt-tool/mcpt/result"
)

// KnownFile is the list of known bugs beside the benchmark's, in
// bench/realbugs.
const KnownFile = "known.yaml"

// Known is a bug of some releases of a transpiler that a pack finds,
// besides the benchmark's bugs: what a finding of it looks like (its
// relations, and patterns its message, flags and evidence match) and the
// releases that have it. Diff is matched against the finding's diff, or
// against the lines the check found in o′ for a check that writes no diff
// (analogy). A finding on a release the benchmark calls fixed
// (or on a pack's own) that no known bug explains is a false alarm.
type Known struct {
	Transpiler string   `yaml:"transpiler"`
	Tracker    string   `yaml:"tracker"` // empty: no report found
	What       string   `yaml:"what"`
	Releases   string   `yaml:"releases"`
	Relations  []string `yaml:"relations"`
	Message    string   `yaml:"message"`
	Flags      string   `yaml:"flags"`
	Diff       string   `yaml:"diff"`

	releases             release.Range
	message, flags, diff *regexp.Regexp
}

// Name is the bug in a few words, with its tracker reference.
func (k *Known) Name() string {
	if k.Tracker == "" {
		return k.What + " (" + k.Transpiler + ", no report)"
	}
	return k.What + " (" + k.Tracker + ")"
}

// LoadKnown reads the list of known bugs in file.
func LoadKnown(file string) ([]*Known, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var ks []*Known
	if err := yamlpos.Decode(file, data, &ks); err != nil {
		return nil, err
	}
	var errs []error
	for i, k := range ks {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("%s: entry %d (%s): %s", file, i+1, k.What, fmt.Sprintf(format, args...)))
		}
		if k.Transpiler == "" || k.What == "" || k.Message == "" || len(k.Relations) == 0 {
			bad("transpiler, what, relations and message are required")
		}
		if k.Tracker != "" && !trackerRE.MatchString(k.Tracker) {
			bad("tracker %q is not owner/repo#number", k.Tracker)
		}
		if k.releases, err = release.ParseRange(k.Releases); err != nil {
			bad("releases: %v", err)
		}
		for _, p := range []struct {
			src string
			dst **regexp.Regexp
		}{{k.Message, &k.message}, {k.Flags, &k.flags}, {k.Diff, &k.diff}} {
			if p.src == "" {
				continue
			}
			if *p.dst, err = regexp.Compile(p.src); err != nil {
				bad("%v", err)
			}
		}
	}
	return ks, errors.Join(errs...)
}

// Explain returns the known bug of the transpiler's release rel that the
// checker finding f is a finding of, nil when none is.
func Explain(ks []*Known, transpiler, rel string, f *result.Finding) *Known {
	v, err := release.Parse(rel)
	if err != nil || f.Kind != result.Oracle {
		return nil
	}
	for _, k := range ks {
		if k.Transpiler != transpiler || !k.releases.Contains(v) || !slices.Contains(k.Relations, f.Relation) {
			continue
		}
		if k.flags != nil && !k.flags.MatchString(f.Flags) {
			continue
		}
		if k.message.MatchString(f.Message) && (k.diff == nil || k.diff.MatchString(f.Diff) || k.diff.MatchString(f.Actual)) {
			return k
		}
	}
	return nil
}
