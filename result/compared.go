package result

import (
	"strings"
	"unicode/utf8"
)

// Compared is what a derived or semantic checker compared to reach its
// verdict, as the page of its finding shows it. Such a checker predicts no
// whole file: the finding's Expected and Actual hold what it kept for the
// signature (the lines it could not explain, its evidence in its own
// words), not a prediction of the file and the file. Exact checks (o
// itself, or o with the predicted change) leave Compared out, and so do
// the findings of earlier versions of mcpt: the report shows them as
// before.
type Compared struct {
	// Kind is the checker's kind: CmpLocality, CmpOrder, CmpAnalogy,
	// CmpConfined, or a semantic kind (js-shape, dts-probe, go-probe).
	Kind string `json:"kind"`
	// Expects says in words what the checker derived from o and the
	// mutation, and looked for in o′.
	Expects string `json:"expects"`
	// Order is the order the check expected (order): the previous
	// neighbour, the new declaration and the next one, "(none)" for a
	// neighbour there is not.
	Order []string `json:"order,omitempty"`
	// Lines are the lines of the failing file the verdict rests on, each
	// with what the checker made of it, at most MaxComparedLines;
	// More counts those left out.
	Lines []CmpLine `json:"lines,omitempty"`
	More  int       `json:"more,omitempty"`
	// Expected and Found are a semantic checker's evidence: what it
	// predicted of o′ (the shape of a module, what the type checker says
	// of uses of the new member against the source) and what it found
	// (the values at run time, the type errors). They are no file's
	// content.
	Expected string `json:"expected,omitempty"`
	Found    string `json:"found,omitempty"`
	// Differences are a semantic checker's disagreements between the two,
	// one sentence each (a member of another type, a use that compiles
	// against one side only, a runtime error).
	Differences []string `json:"differences,omitempty"`
}

// Kinds of Compared of the derived checkers.
const (
	CmpLocality = "locality"
	CmpOrder    = "order"
	CmpAnalogy  = "analogy"
	CmpConfined = "confined"
)

// CmpLine is one line of a comparison: a line of o, a line of o′, or the
// two facing each other (the sibling's line in o and the new member's in
// o′), with what the checker made of it.
type CmpLine struct {
	// O and O2 are the line in o and in o′, nil where there is none.
	O  *LineRef `json:"o,omitempty"`
	O2 *LineRef `json:"o2,omitempty"`
	// Want is the line the checker looked for in o′ and did not find (the
	// sibling's line renamed, its numbers written #).
	Want string `json:"want,omitempty"`
	// Role is what the line is to the check (the Role* constants), Why
	// says why in words.
	Role string `json:"role"`
	Why  string `json:"why,omitempty"`
}

// Roles of a line in a comparison.
const (
	// RoleUnexplained: a line added to or removed from o that nothing
	// the relation allows explains (locality).
	RoleUnexplained = "unexplained"
	// RoleOverLimit: an old line changed only in its numbers or its
	// punctuation, beyond what the relation allows (locality).
	RoleOverLimit = "over-limit"
	// RoleOutOfOrder: a line of o′ not where the order of the input puts
	// it (order).
	RoleOutOfOrder = "out-of-order"
	// RoleFound and RoleMissing: a line of the sibling in o, and the new
	// member's counterpart in o′, or the line it should have (analogy).
	RoleFound   = "found"
	RoleMissing = "missing"
	// RoleExtra: a line of o′ that names the new member and that no line
	// of the sibling accounts for; no failure by itself (analogy).
	RoleExtra = "extra"
	// RoleMention: a line of o′ that mentions a fresh name where none may
	// (confined).
	RoleMention = "mention"
)

// LineRef is a line of a file: its number, from 1, and its text.
type LineRef struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// Bounds of a Compared: the lines kept, and the bytes of each text kept.
const (
	MaxComparedLines = 100
	MaxComparedText  = 4 << 10
)

// Add adds a line, or counts it in More past MaxComparedLines; each text
// is cut at MaxComparedText bytes (at a character boundary, marked …).
func (c *Compared) Add(l CmpLine) {
	if len(c.Lines) >= MaxComparedLines {
		c.More++
		return
	}
	for _, r := range []*LineRef{l.O, l.O2} {
		if r != nil {
			r.Text = cutText(r.Text)
		}
	}
	l.Want = cutText(l.Want)
	c.Lines = append(c.Lines, l)
}

// Ref makes the reference of line n (from 1) with its text.
func Ref(n int, text string) *LineRef { return &LineRef{N: n, Text: text} }

func cutText(s string) string {
	if len(s) <= MaxComparedText {
		return s
	}
	cut := MaxComparedText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.Clone(s[:cut]) + "…"
}
