package report

import (
	"encoding/json"
	"maps"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// newExample gathers the evidence of a finding from its bundle: what a
// group's card shows, and with full what the finding's own page adds (both
// inputs and both versions of the failing file in full).
func newExample(out *bundle.Reader, f0 *result.Finding, bud *budget, full bool) (exampleView, error) {
	b := openBundle(out, f0, bud)
	defer b.close()
	f, err := b.finding(*f0)
	if err != nil {
		return exampleView{}, err
	}
	ex := exampleView{F: f, Href: bundleHref(b.rel), Packed: b.rd != nil && b.rd.IsArchive(), Spot: spotText(f.Spot), Stderr: f.Stderr, Full: full}
	if ex.Reduced, err = b.reduced(&f); err != nil {
		return ex, err
	}
	for _, k := range slices.Sorted(maps.Keys(f.Bindings)) {
		ex.Bindings = append(ex.Bindings, binding{k, f.Bindings[k]})
	}
	if ex.Repro, err = b.repro(); err != nil {
		return ex, err
	}
	in, err := readInputs(b, &f)
	if err != nil {
		return ex, err
	}
	ex.Input, ex.InNote = inputChange(in, &f)
	ex.Compared = newComparedView(f.Compared, f.File)
	if ex.Compared != nil {
		ex.Compared.Full = full
	}
	ev := evidence{input: in.base}
	if f.File != "" {
		out, err := readOutputs(b, &f)
		if err != nil {
			return ex, err
		}
		// The view sets side by side what the check compared: the
		// outputs as the configuration's normalize rules made them.
		shown, normalized, err := normalizeOutputs(b, f.File, out)
		if err != nil {
			return ex, err
		}
		ex.Output, ex.OutNote = outputChange(shown, &f, ex.Compared)
		if normalized {
			ex.OutNote = strings.TrimSpace(ex.OutNote + " Both sides are shown normalized by the configuration's normalize rules, as the check compared them; the files as the transpiler wrote them are in the bundle.")
		}
		ev.o, ev.okO, ev.side = out.base, out.okBase, ex.Output
		if full {
			// The whole files are the bundle's: the page links to them
			// rather than holding a copy of each.
			ex.OutO = bundleFile(bundle.BaseOutDir, f.File, out.base, out.okBase)
			ex.OutO2 = bundleFile(bundle.FollowOutDir, f.File, out.follow, out.okFollow)
		}
	}
	if full {
		// The base input, unchanged, is the bundle's, as the outputs are.
		ex.BaseIn = bundleFile(bundle.BaseDir, path.Base(filepath.ToSlash(f.SeedFile)), in.base, in.okBase)
		if in.okBase && in.okFollow {
			ex.FollowUp = unifiedContext(in.base, in.follow, countLines(in.base)+countLines(in.follow))
		}
	}
	ex.Reading = readFinding(&f, ev)
	ex.Patch, err = patch(b, &f)
	return ex, err
}

// normalizeOutputs returns the failing file name of o and o′ as the
// rules of the bundle's recipe (its configuration's normalize section)
// make them, and whether they changed either: a check compares the
// outputs normalized, and a rule that renumbers (counters a generator
// numbers through the file) makes nearly every line differ otherwise. A
// bundle without a recipe or rules, or whose rules cannot be used, shows
// the outputs as they are.
func normalizeOutputs(b *bundleFiles, name string, out pair) (pair, bool, error) {
	data, size, ok, err := b.readPrefix(maxFindingJSON, bundle.RecipeFile)
	if err != nil || !ok || size > maxFindingJSON {
		return out, false, err
	}
	var rc struct {
		Normalize oracle.Normalizer `json:"normalize"`
	}
	if json.Unmarshal(data, &rc) != nil || len(rc.Normalize) == 0 || rc.Normalize.Check() != nil {
		return out, false, nil
	}
	changed := false
	apply := func(text *string, ok bool) {
		if !ok {
			return
		}
		t := rc.Normalize.Apply(tree.Tree{name: []byte(*text)})
		if n := string(t[name]); n != *text {
			*text, changed = n, true
		}
	}
	apply(&out.base, out.okBase)
	apply(&out.follow, out.okFollow)
	return out, changed, nil
}

// bundleFile is the link to the file name of the bundle directory dir,
// relative to the bundle, with its size in lines, or nil when the bundle
// does not hold it.
func bundleFile(dir, name, text string, ok bool) *fileLink {
	if !ok {
		return nil
	}
	u := dir
	for _, seg := range strings.Split(name, "/") {
		u += "/" + url.PathEscape(seg)
	}
	return &fileLink{Path: u, Name: dir + "/" + name, Lines: countLines(text)}
}

// fileLink is a file of a bundle that a page links to: its path in the
// bundle, escaped for a link and as it is.
type fileLink struct {
	Path  string
	Name  string
	Lines int
}

// pair is a file as the base and as the follow-up hold it.
type pair struct {
	base, follow     string
	okBase, okFollow bool
}

// readInputs reads the base and follow-up inputs of finding f, which
// bundles keep under the seed's base name.
func readInputs(b *bundleFiles, f *result.Finding) (pair, error) {
	var p pair
	var err error
	seed := path.Base(filepath.ToSlash(f.SeedFile))
	if p.base, p.okBase, err = b.read(bundle.BaseDir, seed); err != nil {
		return p, err
	}
	p.follow, p.okFollow, err = b.read(bundle.FollowUpDir, seed)
	return p, err
}

// readOutputs reads finding f's failing file in o and o′; o′ is the
// finding's own Actual when the bundle lacks it.
func readOutputs(b *bundleFiles, f *result.Finding) (pair, error) {
	var p pair
	var err error
	if p.base, p.okBase, err = b.read(bundle.BaseOutDir, f.File); err != nil {
		return p, err
	}
	if p.follow, p.okFollow, err = b.read(bundle.FollowOutDir, f.File); err != nil {
		return p, err
	}
	if !p.okFollow && f.Actual != "" {
		p.follow, p.okFollow = f.Actual, true
	}
	return p, nil
}

// inputChange is the input change i → i′ of finding f, or a note saying
// why the bundle cannot show it.
func inputChange(in pair, f *result.Finding) (lines []uline, note string) {
	switch {
	case !in.okBase && !in.okFollow:
		return nil, "The bundle has no copy of the base or the follow-up input."
	case !in.okBase:
		return nil, "The bundle has no copy of the base input."
	case !in.okFollow && f.Role == result.RoleBase:
		// The base run failed: there is no follow-up, only the base.
		return plainLines(in.base), "The base run failed, so there is no follow-up input: above is the base input."
	case !in.okFollow:
		return nil, "The bundle has no copy of the follow-up input."
	case in.base == in.follow:
		return nil, "The follow-up input is identical to the base input."
	}
	return unified(in.base, in.follow), ""
}

// outputChange shows the outputs o and o′ of finding f's failing file side
// by side, against the prediction, with a note on what is missing. A
// derived or semantic check (cmp is set) made no prediction of the file:
// the view marks none, and flags the lines the checker pointed at.
func outputChange(out pair, f *result.Finding, cmp *comparedView) (*sideBySide, string) {
	if !out.okBase && !out.okFollow {
		return nil, f.File + " is in neither output."
	}
	note := ""
	if !out.okBase {
		note = f.File + " is not in o."
	} else if !out.okFollow {
		note = f.File + " is not in o′."
	}
	if cmp != nil {
		inO, inO2 := cmp.marks()
		return buildDerivedSideBySide(out.base, out.follow, inO, inO2), note
	}
	side := buildSideBySide(out.base, out.follow, f.Expected, f.Expected != "")
	if f.Expected == "" {
		note = strings.TrimSpace(note + " The finding carries no predicted content, so no line is marked.")
	}
	return side, note
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
