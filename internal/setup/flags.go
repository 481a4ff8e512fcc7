package setup

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// UsageError is a mistake on the command line (a --flags value the
// configuration does not have), as opposed to one in the files.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// takeFlags takes the configuration's flags, restricted to the values
// restrict names, and asks a builtin transpiler whether it takes each
// value's arguments.
func (s *Setup) takeFlags(restrict []string) error {
	s.Flags = s.Config.Flags.Matrix
	if len(restrict) > 0 {
		pairs, err := matrix.ParsePairs(restrict...)
		if err == nil {
			s.Flags, err = s.Flags.Restrict(pairs)
		}
		if err != nil {
			return &UsageError{fmt.Errorf("--flags %v", err)}
		}
	}
	fc, ok := s.Transpiler.(transpiler.FlagChecker)
	if !ok {
		return nil
	}
	var errs config.ErrorList
	for _, d := range s.Flags {
		for _, v := range d.Values {
			if err := fc.CheckFlags(v.Args); err != nil {
				errs.Add(config.Errorf(s.Config.FlagPos(d.Name, v.Name), "flags: %s=%s: the transpiler does not take %q: %v", d.Name, v.Name, v.Args, err))
			}
		}
	}
	return cfgErr(errs.Err())
}

// ReadRelease runs the transpiler's version command, if it has one, and
// keeps the release it prints. A command that fails is a configuration
// error, at transpiler.version when the configuration is a file.
func (s *Setup) ReadRelease(ctx context.Context) error {
	sp, err := s.Spec()
	if err != nil {
		return err
	}
	v, ok, err := transpiler.Release(ctx, sp)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		if pos := s.Config.Transpiler.VersionPos; pos.File != "" {
			return cfgErr(config.Errorf(pos, "%v", err))
		}
		return cfgErr(err)
	}
	if ok {
		s.Release = v.Text
	}
	return nil
}

// CheckSupports checks the campaign against what the packs of its
// relations support: each flag value, and, when release is set, the
// transpiler's release. Each problem is one line naming the pack, the
// release or the flag, and what the pack supports; none of them runs a
// test case.
func (s *Setup) CheckSupports(release bool) error {
	var lines []string
	for _, sup := range Packs(s.Relations) {
		at := func(msg string) string {
			if sup.Source == "" {
				return msg
			}
			return sup.Source + ": " + msg
		}
		if release {
			if err := sup.CheckRelease(s.Release); err != nil {
				lines = append(lines, at(err.Error()+s.versionShown()))
			}
		}
		for _, d := range s.Flags {
			for _, v := range d.Values {
				if err := sup.CheckFlag(d.Name, v.Name); err != nil {
					msg := "flags: " + err.Error()
					if sup.Source != "" {
						msg += " (" + sup.Source + ")"
					}
					lines = append(lines, config.Errorf(s.Config.FlagPos(d.Name, v.Name), "%s", msg).Error())
				}
			}
		}
	}
	if len(lines) == 0 && release {
		lines = s.leaveOutValues()
	}
	if len(lines) == 0 {
		return nil
	}
	return cfgErr(fmt.Errorf("%s", strings.Join(lines, "\n")))
}

// leaveOutValues leaves out of s.Flags the values that a pack supports
// for some releases only (supports: {flags: {D: [{V: RANGE}]}}) and that
// the transpiler's release is not one of: the combinations holding them
// would run an option the release does not have. Each value left out is
// a note; a dimension left without a value, or a release that is not
// known where a value needs one, is an error line (returned).
func (s *Setup) leaveOutValues() []string {
	var lines []string
	out := make(matrix.Matrix, len(s.Flags))
	for i, d := range s.Flags {
		out[i] = matrix.Dimension{Name: d.Name}
		var gone []string
		for _, v := range d.Values {
			keep := true
			for _, sup := range Packs(s.Relations) {
				ok, err := sup.TakesValue(d.Name, v.Name, s.Release)
				if err != nil {
					lines = append(lines, config.Errorf(s.Config.FlagPos(d.Name, v.Name), "flags: %v (%s)", err, sup.Source).Error())
				}
				if !ok {
					keep = false
					if err == nil {
						gone = append(gone, fmt.Sprintf("%s=%s (the pack supports it for releases %s, %s)", d.Name, v.Name, sup.ValueReleases[d.Name][v.Name], sup.Source))
					}
					break
				}
			}
			if keep {
				out[i].Values = append(out[i].Values, v)
			}
		}
		if len(out[i].Values) == 0 && len(d.Values) > 0 && len(lines) == 0 {
			lines = append(lines, config.Errorf(s.Config.FlagPos(d.Name, d.Values[0].Name), "flags: release %s of the transpiler takes no value of %s the configuration gives: %s", s.Release, d.Name, strings.Join(gone, "; ")).Error())
		}
		for _, g := range gone {
			s.Notes = append(s.Notes, fmt.Sprintf("release %s: left out %s", s.Release, g))
		}
	}
	if len(lines) == 0 {
		s.Flags = out
	}
	return lines
}

// versionShown says which command printed the release, for a message.
func (s *Setup) versionShown() string {
	if v := s.Config.Transpiler.Version; len(v) > 0 && s.Release != "" {
		return fmt.Sprintf(" (printed by %s)", strings.Join(v, " "))
	}
	return ""
}

// Packs are the distinct statements of what relation packs support that
// rels carry, in the order of the relations.
func Packs(rels []*relation.Relation) []*relation.Supports {
	var out []*relation.Supports
	seen := map[*relation.Supports]bool{}
	for _, r := range rels {
		if r.Supports != nil && !seen[r.Supports] {
			seen[r.Supports] = true
			out = append(out, r.Supports)
		}
	}
	return out
}

// Combinations are the combinations of s's flags, the zero one when it
// has none.
func (s *Setup) Combinations() []matrix.Combination { return s.Flags.Combinations() }

// Seed is seed under the combination of s's flags that pairs name
// (dimension=value each, as a finding records them); the other
// dimensions keep the values of the combination given, when one is.
func (s *Setup) Seed(seed engine.Seed, recorded string, pairs []string) (engine.Seed, error) {
	ps, err := matrix.ParsePairs(append([]string{recorded}, pairs...)...)
	if err != nil {
		return seed, &UsageError{fmt.Errorf("--flags %v", err)}
	}
	// Later pairs win: --flags over what the finding recorded.
	last := map[string]int{}
	for i, p := range ps {
		last[p.Dimension] = i
	}
	var keep []matrix.Pair
	for i, p := range ps {
		if last[p.Dimension] == i {
			keep = append(keep, p)
		}
	}
	c, err := s.Config.Flags.Matrix.Combination(keep)
	if err != nil {
		// Say whose word was wrong: the command line's, else the finding's.
		if len(pairs) > 0 {
			if ps, perr := matrix.ParsePairs(pairs...); perr == nil {
				if _, rerr := s.Config.Flags.Matrix.Restrict(ps); rerr != nil {
					return seed, &UsageError{fmt.Errorf("--flags %v", rerr)}
				}
			}
		}
		return seed, &UsageError{fmt.Errorf("the combination of flags %q: %v (--flags gives a value)", joinPairs(keep), err)}
	}
	seed.Flags = c
	return seed, nil
}

func joinPairs(ps []matrix.Pair) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Dimension + "=" + p.Value
	}
	return strings.Join(parts, ",")
}
