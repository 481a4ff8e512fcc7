package report

import (
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// newExample gathers the evidence of a group's example from its bundle.
func newExample(out *bundle.Reader, f0 *result.Finding, bud *budget) (exampleView, error) {
	b := openBundle(out, f0, bud)
	defer b.close()
	f, err := b.finding(*f0)
	if err != nil {
		return exampleView{}, err
	}
	ex := exampleView{F: f, Href: b.rel + "/", Spot: spotText(f.Spot), Stderr: f.Stderr}
	if ex.Reduced, err = b.reduced(&f); err != nil {
		return ex, err
	}
	for _, k := range slices.Sorted(maps.Keys(f.Bindings)) {
		ex.Bindings = append(ex.Bindings, binding{k, f.Bindings[k]})
	}
	if ex.Repro, err = b.repro(); err != nil {
		return ex, err
	}
	if ex.Input, ex.InNote, err = inputChange(b, &f); err != nil {
		return ex, err
	}
	if f.File != "" {
		if ex.Output, ex.OutNote, err = outputChange(b, &f); err != nil {
			return ex, err
		}
	}
	ex.Patch, err = patch(b, &f)
	return ex, err
}

// inputChange is the input change i → i′ of finding f, or a note saying
// why the bundle cannot show it.
func inputChange(b *bundleFiles, f *result.Finding) (lines []uline, note string, err error) {
	// Bundles keep the inputs under the seed's base name.
	seed := path.Base(filepath.ToSlash(f.SeedFile))
	in, okIn, err := b.read(bundle.BaseDir, seed)
	if err != nil {
		return nil, "", err
	}
	in2, okIn2, err := b.read(bundle.FollowUpDir, seed)
	if err != nil {
		return nil, "", err
	}
	switch {
	case !okIn && !okIn2:
		return nil, "The bundle has no copy of the base or the follow-up input.", nil
	case !okIn:
		return nil, "The bundle has no copy of the base input.", nil
	case !okIn2 && f.Role == result.RoleBase:
		// The base run failed: there is no follow-up, only the base.
		return plainLines(in), "The base run failed, so there is no follow-up input: above is the base input.", nil
	case !okIn2:
		return nil, "The bundle has no copy of the follow-up input.", nil
	case in == in2:
		return nil, "The follow-up input is identical to the base input.", nil
	}
	return unified(in, in2), "", nil
}

// outputChange shows the outputs o and o′ of finding f's failing file side
// by side, against the prediction, with a note on what is missing.
func outputChange(b *bundleFiles, f *result.Finding) (*sideBySide, string, error) {
	o, okO, err := b.read(bundle.BaseOutDir, f.File)
	if err != nil {
		return nil, "", err
	}
	o2, okO2, err := b.read(bundle.FollowOutDir, f.File)
	if err != nil {
		return nil, "", err
	}
	if !okO2 && f.Actual != "" {
		o2, okO2 = f.Actual, true
	}
	if !okO && !okO2 {
		return nil, f.File + " is in neither output.", nil
	}
	note := ""
	if !okO {
		note = f.File + " is not in o."
	} else if !okO2 {
		note = f.File + " is not in o′."
	}
	side := buildSideBySide(o, o2, f.Expected, f.Expected != "")
	if f.Expected == "" {
		note = strings.TrimSpace(note + " The finding carries no predicted content, so no line is marked.")
	}
	return side, note, nil
}

// patch is the diff of finding f's outputs: the bundle's diff.txt, or else
// the finding's own.
func patch(b *bundleFiles, f *result.Finding) ([]uline, error) {
	d, ok, err := b.read(bundle.DiffFile)
	switch {
	case err != nil:
		return nil, err
	case ok && d != "":
		return patchLines(d), nil
	case f.Diff != "":
		return patchLines(f.Diff), nil
	}
	return nil, nil
}
