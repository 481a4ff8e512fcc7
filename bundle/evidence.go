package bundle

import (
	"encoding/json"
	"path"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// maxPacked bounds the texts whose evidence a bundle keeps as edits (see
// packEvidence): the edits are found by a diff of the failing file with
// the actual and the expected content, which takes time and memory in
// their size; larger ones stay whole.
const maxPacked = 4 << 20

// packEvidence returns f as its bundle's finding.json keeps it: when the
// follow-up's output in the bundle (out) holds the failing file, the
// expected and the actual content, which are that file normalized and
// the prediction, are kept as edits of it (result.Evidence) with their
// hash, where that is less than half their size; else f as it is.
//
// The actual content is most often the file as the recipe's normalize
// rules (norm) make it: the evidence says so (Normalized) instead of
// keeping their edits, one for each counter a generator numbers through
// the file (Thrift's _iterN: hundreds in a file of C++).
func packEvidence(f result.Finding, out tree.Tree, norm oracle.Normalizer) result.Finding {
	raw, ok := out[f.File]
	if !ok || f.File == "" || f.Expected == "" && f.Actual == "" || len(raw)+len(f.Expected)+len(f.Actual) > maxPacked {
		return f
	}
	ev := &result.Evidence{Expected: edits(udiff.Strings(f.Actual, f.Expected))}
	if len(norm) > 0 && string(raw) != f.Actual && normalized(raw, f.File, norm) == f.Actual {
		ev.Normalized = true
	} else {
		ev.Actual = edits(udiff.Strings(string(raw), f.Actual))
	}
	size := 0
	for _, es := range [][]result.Edit{ev.Actual, ev.Expected} {
		for _, e := range es {
			size += len(e.New) + 16
		}
	}
	if size > (len(f.Expected)+len(f.Actual))/2 {
		return f
	}
	f.EvidenceSum = result.EvidenceSum(f.Expected, f.Actual)
	f.Expected, f.Actual, f.Evidence = "", "", ev
	return f
}

func edits(es []udiff.Edit) []result.Edit {
	out := make([]result.Edit, len(es))
	for i, e := range es {
		out[i] = result.Edit{Start: e.Start, End: e.End, New: e.New}
	}
	return out
}

func udiffEdits(es []result.Edit) []udiff.Edit {
	out := make([]udiff.Edit, len(es))
	for i, e := range es {
		out[i] = udiff.Edit{Start: e.Start, End: e.End, New: e.New}
	}
	return out
}

// unpackEvidence completes f, a bundle's finding whose evidence is kept
// as edits, from raw, the failing file of the bundle's follow-up output,
// when the edits give what the finding's hash names; it tells whether it
// did. A file edited since (the bundle is plain files) leaves f as it is.
//
// Evidence kept as the normalized file needs norm, the rules of the
// bundle's recipe; nil (no recipe, or rules that cannot be used) leaves f
// as it is.
func unpackEvidence(f *result.Finding, raw []byte, norm oracle.Normalizer) bool {
	if f.Evidence == nil || f.EvidenceSum == "" {
		return false
	}
	var actual string
	if f.Evidence.Normalized {
		if norm == nil || norm.Check() != nil {
			return false
		}
		actual = normalized(raw, f.File, norm)
	} else {
		var err error
		if actual, err = udiff.Apply(string(raw), udiffEdits(f.Evidence.Actual)); err != nil {
			return false
		}
	}
	expected, err := udiff.Apply(actual, udiffEdits(f.Evidence.Expected))
	if err != nil || result.EvidenceSum(expected, actual) != f.EvidenceSum {
		return false
	}
	f.Expected, f.Actual, f.Evidence, f.EvidenceSum = expected, actual, nil, ""
	return true
}

// unpackIn completes f, the finding of the bundle at rel that r reads,
// when its evidence is kept as edits (see unpackEvidence).
func (r *Reader) unpackIn(rel string, f *result.Finding) {
	if f.Evidence == nil || f.File == "" {
		return
	}
	raw, err := r.ReadFile(path.Join(rel, FollowOutDir, f.File))
	if err != nil {
		return
	}
	var norm oracle.Normalizer
	if f.Evidence.Normalized {
		norm = r.recipeNormalize(rel)
	}
	unpackEvidence(f, raw, norm)
}

// recipeNormalize reads the normalize rules of the recipe of the bundle at
// rel; nil when it has none or it cannot be read.
func (r *Reader) recipeNormalize(rel string) oracle.Normalizer {
	data, err := r.ReadFile(path.Join(rel, RecipeFile))
	if err != nil {
		return nil
	}
	var rc struct {
		Normalize oracle.Normalizer `json:"normalize"`
	}
	if json.Unmarshal(data, &rc) != nil {
		return nil
	}
	return rc.Normalize
}

// normalized is the output file name, raw, as the rules norm make it.
func normalized(raw []byte, name string, norm oracle.Normalizer) string {
	return string(norm.Apply(tree.Tree{name: raw})[name])
}

// FindingEvidence completes f, the finding that the finding.json of the
// bundle at rel holds, with the expected and actual content it keeps as
// edits of the bundle's follow-up output, when those give what the
// finding's hash names; otherwise f stays as it is.
func (r *Reader) FindingEvidence(rel string, f *result.Finding) { r.unpackIn(rel, f) }
