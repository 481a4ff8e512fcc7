package report

import (
	"strings"

	"github.com/mcpt-tool/mcpt/result"
)

// comparedView is what a derived or semantic checker compared, as a
// finding's card and page show it in place of a prediction the checker
// never made (see result.Compared).
type comparedView struct {
	C    *result.Compared
	File string // the failing file
	Full bool   // on the finding's own page (not a group's card)
	// Lines are the lines the verdict rests on: o's facing o′'s.
	Lines []cmpRow
	// Order is the order the check expected, "A → B → C".
	Order string
	// Evidence is a semantic checker's prediction beside what it found,
	// their differing lines marked.
	Evidence *sideBySide
}

// cmpRow is one line of a comparison.
type cmpRow struct {
	LNo, RNo int    // line numbers in o and o′, 0 for none
	L, R     string // the texts; R is the line looked for when Want
	Want     bool   // R is no line of o′ but the one the checker looked for
	Role     string // the role, as a class
	Label    string // the role in words
	Why      string
}

// roleLabels are the roles of lines in words, for the page.
var roleLabels = map[string]string{
	result.RoleUnexplained: "not explained",
	result.RoleOverLimit:   "beyond the allowance",
	result.RoleOutOfOrder:  "out of order",
	result.RoleFound:       "found",
	result.RoleMissing:     "missing",
	result.RoleExtra:       "extra",
	result.RoleMention:     "mention",
}

// newComparedView makes the view of c, of the failing file; nil for a
// finding without one.
func newComparedView(c *result.Compared, file string) *comparedView {
	if c == nil {
		return nil
	}
	v := &comparedView{C: c, File: file}
	if len(c.Order) > 0 {
		v.Order = strings.Join(c.Order, " → ")
	}
	for _, l := range c.Lines {
		r := cmpRow{Role: l.Role, Label: roleLabels[l.Role], Why: l.Why}
		if r.Label == "" {
			r.Label = l.Role
		}
		if l.O != nil {
			r.LNo, r.L = l.O.N, l.O.Text
		}
		switch {
		case l.O2 != nil:
			r.RNo, r.R = l.O2.N, l.O2.Text
		case l.Want != "":
			r.R, r.Want = l.Want, true
		}
		v.Lines = append(v.Lines, r)
	}
	if c.Expected != "" || c.Found != "" {
		v.Evidence = buildSideBySide(c.Expected, c.Found, "", false)
	}
	return v
}

// marks are the lines of o and o′ a comparison points at, by number, with
// the role each has: the side-by-side view of the outputs marks them.
func (v *comparedView) marks() (inO, inO2 map[int]string) {
	inO, inO2 = map[int]string{}, map[int]string{}
	if v == nil {
		return inO, inO2
	}
	for _, l := range v.Lines {
		if l.LNo > 0 {
			inO[l.LNo] = oLabel(l)
		}
		if l.RNo > 0 {
			inO2[l.RNo] = l.Label
		}
	}
	return inO, inO2
}

// oLabel is what a line of o is to the check, on the side-by-side view,
// whose one gutter is beside o′: the sibling's line (analogy), or the
// role of the line said of o.
func oLabel(l cmpRow) string {
	switch l.Role {
	case result.RoleFound, result.RoleMissing:
		return "sibling"
	}
	return l.Label + " (o)"
}
