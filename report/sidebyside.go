package report

import (
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"
)

// Classes of a line in a side-by-side view.
const (
	clsRemoved    = "del"   // in o, not in o′
	clsAdded      = "add"   // in o′, not in o, as predicted
	clsUnexpected = "unexp" // in o′ but not in the prediction
	clsMissing    = "miss"  // in the prediction but not in o′
	clsMoved      = "moved" // in o and in o′, at another place
)

// row is one row of a side-by-side view of o and o′. A row with Gap > 0
// stands for that many unchanged rows left out.
type row struct {
	Gap            int
	LNo, RNo       int // 1-based line numbers, 0 for none
	L, R           string
	LClass, RClass string
	Mark           string // "unexpected" or "missing", for the gutter
	// LFlag and RFlag mark the lines a derived checker pointed at (see
	// comparedView); Mark then says what it made of them.
	LFlag, RFlag bool
}

// sideBySide is the view of one output file in o and o′, with the
// difference between the predicted and the actual o′ marked.
type sideBySide struct {
	Rows       []row
	Missing    int // predicted lines absent from o′
	Unexpected int // lines of o′ that were not predicted
	Added      int // lines of o′ not in o, as predicted
	Removed    int // lines of o not in o′
	Moved      int // lines of o that o′ has at another place (with moves)
	Truncated  int // rows left out past the limit
	Predicted  bool
	// Derived is set for the view of a derived check's outputs: no
	// prediction, moved lines told from removed ones, and the lines the
	// checker pointed at flagged.
	Derived bool
}

// Limits of a side-by-side view, so that a report with a huge output file
// stays readable.
const (
	contextRows = 3
	maxRows     = 600
)

// buildSideBySide lines up base (o) and actual (o′) and marks, against
// predicted when hasPrediction, the lines of o′ that were not predicted and
// the predicted lines that o′ lacks.
func buildSideBySide(base, actual, predicted string, hasPrediction bool) *sideBySide {
	v := &sideBySide{Predicted: hasPrediction}
	al := &aligner{v: v, o: lines(base), a: lines(actual)}
	al.unexpected, al.missingAt = markPrediction(v, al.a, predicted, hasPrediction && predicted != actual)

	var diffs []lcs.Diff
	if base != actual {
		diffs = lcs.DiffLines(al.o, al.a)
	}
	for _, d := range diffs {
		al.equalUpTo(d.Start)
		al.changed(d)
	}
	al.equalUpTo(len(al.o))
	al.flushMissing(len(al.a))

	v.Rows = collapse(al.rows)
	if len(v.Rows) > maxRows {
		v.Truncated = len(v.Rows) - maxRows
		v.Rows = v.Rows[:maxRows]
	}
	return v
}

// buildDerivedSideBySide lines up base (o) and actual (o′) for a check
// that predicted no file: nothing is marked against a prediction; a line
// that the line diff pairs as removed (or added) but that the other side
// has too, as often, is marked moved, not removed; and the lines the
// checker pointed at (markO in o, markO2 in o′, by number) are flagged
// with what it made of them.
func buildDerivedSideBySide(base, actual string, markO, markO2 map[int]string) *sideBySide {
	v := &sideBySide{Derived: true}
	al := &aligner{v: v, o: lines(base), a: lines(actual)}
	al.unexpected, al.missingAt = markPrediction(v, al.a, "", false)
	var diffs []lcs.Diff
	if base != actual {
		diffs = lcs.DiffLines(al.o, al.a)
	}
	for _, d := range diffs {
		al.equalUpTo(d.Start)
		al.changed(d)
	}
	al.equalUpTo(len(al.o))
	rows := al.rows
	markMoves(v, rows, al.o, al.a)
	for k := range rows {
		r := &rows[k]
		if m, ok := markO[r.LNo]; ok && r.LNo > 0 {
			r.LFlag, r.Mark = true, m
		}
		if m, ok := markO2[r.RNo]; ok && r.RNo > 0 {
			r.RFlag, r.Mark = true, m
		}
	}
	v.Rows = collapse(rows)
	if len(v.Rows) > maxRows {
		v.Truncated = len(v.Rows) - maxRows
		v.Rows = v.Rows[:maxRows]
	}
	return v
}

// markMoves reclassifies the removed lines of o that o′ still has (as
// many times as o has them, once the lines the diff kept are counted)
// and the added lines of o′ that o has, as moved.
func markMoves(v *sideBySide, rows []row, o, a []string) {
	inO, inA := map[string]int{}, map[string]int{}
	for _, l := range o {
		inO[l]++
	}
	for _, l := range a {
		inA[l]++
	}
	// What each side has beyond the lines the diff kept on both.
	spareA, spareO := map[string]int{}, map[string]int{}
	for l, n := range inA {
		spareA[l] = n
	}
	for l, n := range inO {
		spareO[l] = n
	}
	for _, r := range rows {
		if r.LNo > 0 && r.LClass == "" {
			spareA[r.L]--
			spareO[r.L]--
		}
	}
	for k := range rows {
		r := &rows[k]
		if r.LClass == clsRemoved && spareA[r.L] > 0 {
			spareA[r.L]--
			r.LClass = clsMoved
			v.Removed--
			v.Moved++
		}
		if r.RClass == clsAdded && spareO[r.R] > 0 {
			spareO[r.R]--
			r.RClass = clsMoved
			v.Added--
		}
	}
}

// markPrediction compares, when compare is set, the prediction with the
// actual o′ (lines a): which lines of o′ are unexpected, and which
// predicted lines are missing, anchored before a line of o′. It counts
// both in v.
func markPrediction(v *sideBySide, a []string, predicted string, compare bool) (unexpected []bool, missingAt map[int][]string) {
	unexpected = make([]bool, len(a))
	missingAt = map[int][]string{}
	if !compare {
		return unexpected, missingAt
	}
	e := lines(predicted)
	for _, d := range lcs.DiffLines(e, a) {
		for j := d.ReplStart; j < d.ReplEnd; j++ {
			unexpected[j] = true
			v.Unexpected++
		}
		missingAt[d.ReplStart] = append(missingAt[d.ReplStart], e[d.Start:d.End]...)
		v.Missing += d.End - d.Start
	}
	return unexpected, missingAt
}

// aligner builds the rows of a side-by-side view of o and a (o′), line i
// of o and line j of a at a time.
type aligner struct {
	v          *sideBySide
	o, a       []string
	unexpected []bool
	missingAt  map[int][]string
	rows       []row
	i, j       int
}

// flushMissing adds the rows of the predicted lines missing before line j
// of o′.
func (al *aligner) flushMissing(j int) {
	for _, l := range al.missingAt[j] {
		al.rows = append(al.rows, row{R: l, RClass: clsMissing, Mark: "missing"})
	}
	delete(al.missingAt, j)
}

// right puts line j of o′ on the right of r; changed says it is not in o.
func (al *aligner) right(r *row, j int, changed bool) {
	r.RNo, r.R = j+1, al.a[j]
	switch {
	case al.unexpected[j]:
		r.RClass, r.Mark = clsUnexpected, "unexpected"
	case changed:
		r.RClass = clsAdded
		al.v.Added++
	}
}

// equalUpTo adds the rows of the unchanged lines of o up to iEnd.
func (al *aligner) equalUpTo(iEnd int) {
	for al.i < iEnd {
		al.flushMissing(al.j)
		r := row{LNo: al.i + 1, L: al.o[al.i]}
		al.right(&r, al.j, false)
		al.rows = append(al.rows, r)
		al.i++
		al.j++
	}
}

// changed adds the rows of the change d, pairing removed and added lines
// row by row.
func (al *aligner) changed(d lcs.Diff) {
	for al.i < d.End || al.j < d.ReplEnd {
		if al.j < d.ReplEnd {
			al.flushMissing(al.j)
		}
		var r row
		if al.i < d.End {
			r.LNo, r.L, r.LClass = al.i+1, al.o[al.i], clsRemoved
			al.v.Removed++
			al.i++
		}
		if al.j < d.ReplEnd {
			al.right(&r, al.j, true)
			al.j++
		}
		al.rows = append(al.rows, r)
	}
}

// collapse replaces runs of unchanged rows far from any change by a gap row.
func collapse(rows []row) []row {
	keep := make([]bool, len(rows))
	for k, r := range rows {
		if r.LClass == "" && r.RClass == "" && !r.LFlag && !r.RFlag {
			continue
		}
		for m := max(0, k-contextRows); m <= min(len(rows)-1, k+contextRows); m++ {
			keep[m] = true
		}
	}
	var out []row
	gap := 0
	for k, r := range rows {
		if !keep[k] {
			gap++
			continue
		}
		if gap > 0 {
			out = append(out, row{Gap: gap})
			gap = 0
		}
		out = append(out, r)
	}
	if gap > 0 {
		out = append(out, row{Gap: gap})
	}
	return out
}

// uline is one line of a unified diff view.
type uline struct {
	Class    string // "hunk", "add", "del" or ""
	Old, New int    // line numbers, 0 for none
	Text     string
}

// unified renders the line diff from a to b with three lines of context.
func unified(a, b string) []uline { return unifiedContext(a, b, udiff.DefaultContextLines) }

// unifiedContext renders the line diff from a to b with n lines of
// context around each change.
func unifiedContext(a, b string, n int) []uline {
	if a == b {
		return nil
	}
	u, err := udiff.ToUnifiedDiff("a", "b", a, udiff.Lines(a, b), n)
	if err != nil {
		return []uline{{Class: "hunk", Text: "(no diff: " + err.Error() + ")"}}
	}
	var out []uline
	for _, h := range u.Hunks {
		var nOld, nNew int
		for _, l := range h.Lines {
			if l.Kind != udiff.Insert {
				nOld++
			}
			if l.Kind != udiff.Delete {
				nNew++
			}
		}
		out = append(out, uline{Class: "hunk", Text: hunkHeader(h.FromLine, nOld, h.ToLine, nNew)})
		o, n := h.FromLine, h.ToLine
		for _, l := range h.Lines {
			text := strings.TrimSuffix(l.Content, "\n")
			switch l.Kind {
			case udiff.Delete:
				out = append(out, uline{Class: "del", Old: o, Text: text})
				o++
			case udiff.Insert:
				out = append(out, uline{Class: "add", New: n, Text: text})
				n++
			default:
				out = append(out, uline{Old: o, New: n, Text: text})
				o++
				n++
			}
		}
	}
	return out
}

// patchLines renders a unified diff text, such as a bundle's diff.txt.
func patchLines(text string) []uline {
	var out []uline
	for _, l := range lines(text) {
		c := ""
		switch {
		case strings.HasPrefix(l, "@@"):
			c = "hunk"
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			c = "file"
		case strings.HasPrefix(l, "+"):
			c = "add"
		case strings.HasPrefix(l, "-"):
			c = "del"
		}
		out = append(out, uline{Class: c, Text: l})
	}
	return out
}

func hunkHeader(from, nFrom, to, nTo int) string {
	return "@@ -" + span(from, nFrom) + " +" + span(to, nTo) + " @@"
}

func span(start, n int) string {
	if n == 0 {
		start--
	}
	if n == 1 {
		return itoa(start)
	}
	return itoa(start) + "," + itoa(n)
}

// lines splits text into lines without their newlines.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
