package bundle

import (
	"path"

	"github.com/aymanbagabas/go-udiff"

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
func packEvidence(f result.Finding, out tree.Tree) result.Finding {
	raw, ok := out[f.File]
	if !ok || f.File == "" || f.Expected == "" && f.Actual == "" || len(raw)+len(f.Expected)+len(f.Actual) > maxPacked {
		return f
	}
	ev := &result.Evidence{Actual: edits(udiff.Strings(string(raw), f.Actual)), Expected: edits(udiff.Strings(f.Actual, f.Expected))}
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
func unpackEvidence(f *result.Finding, raw []byte) bool {
	if f.Evidence == nil || f.EvidenceSum == "" {
		return false
	}
	actual, err := udiff.Apply(string(raw), udiffEdits(f.Evidence.Actual))
	if err != nil {
		return false
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
	if raw, err := r.ReadFile(path.Join(rel, FollowOutDir, f.File)); err == nil {
		unpackEvidence(f, raw)
	}
}

// FindingEvidence completes f, the finding that the finding.json of the
// bundle at rel holds, with the expected and actual content it keeps as
// edits of the bundle's follow-up output, when those give what the
// finding's hash names; otherwise f stays as it is.
func (r *Reader) FindingEvidence(rel string, f *result.Finding) { r.unpackIn(rel, f) }
