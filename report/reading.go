package report

import (
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/result"
)

// reading is a finding in words: what its check expects, what it found,
// and what that says about o and o′. A checker compares o′ with o (or with
// a prediction built from o), so a failure is a disagreement between the
// two outputs and does not by itself say which one is wrong; InBase is set
// when the bundle shows the fault in o already.
type reading struct {
	Expects string
	Found   string
	Means   string
	InBase  string
}

// evidence is what a reading needs besides the finding: the failing
// file in o, the base input, and the side-by-side view of the file when
// there is one.
type evidence struct {
	o     string
	okO   bool
	input string
	side  *sideBySide
}

// readFinding says in words what finding f means, from its fields and the
// evidence of its bundle.
func readFinding(f *result.Finding, ev evidence) reading {
	switch f.Kind {
	case result.Crash, result.Timeout:
		return readRunFailure(f)
	case result.RejectedFollowUp:
		found := "It rejected i′" + status(f) + "."
		if f.Diagnostic != "" {
			found = "It rejected i′" + status(f) + ": " + f.Diagnostic
		}
		return reading{
			Expects: "The relation inserts only valid declarations, so the transpiler must accept the follow-up input i′ as it accepted the base input i.",
			Found:   found,
			Means:   "Either the transpiler wrongly rejects a valid program, or the relation made an invalid one (mcpt validate runs one follow-up per relation through the transpiler).",
		}
	}
	r := readCheck(f, ev)
	if ev.okO {
		if note := reversedInBase(f.File, ev.o, ev.input); note != "" {
			r.InBase = note
			r.Means = "So this finding need not mean that o′ is wrong: o departs from the input already, and o′ may only carry the same fault over to the new declaration, where it no longer matches what the relation derived from o."
		}
	}
	return r
}

// readRunFailure reads a crash or a timeout: of the base run, the fault
// is in o's run, before any change.
func readRunFailure(f *result.Finding) reading {
	what := "crashed" + status(f)
	if f.Kind == result.Timeout {
		what = "did not finish within the time limit"
	}
	if f.Role == result.RoleBase {
		return reading{
			Expects: "The transpiler must transpile the base input i.",
			Found:   "It " + what + " on i.",
			InBase:  "The fault is in the run on the base input: no change had been made yet, so there is no o′ to blame.",
		}
	}
	return reading{
		Expects: "The transpiler transpiled the base input i, so it must transpile the follow-up input i′ too.",
		Found:   "It " + what + " on i′.",
		Means:   "The base run went through: the inserted declaration brought the fault out.",
	}
}

// readCheck reads a failed consistency check by the evidence it left: an
// expected content equal to o (an equivalence check), another expected
// content (a predicted difference), or a diff of o → o′ alone (a derived
// check, which predicts no whole file).
func readCheck(f *result.Finding, ev evidence) reading {
	file := "the file"
	if f.File != "" {
		file = f.File
	}
	checker, who := "", "The checker"
	if f.Checker != "" {
		checker, who = " (checker "+f.Checker+")", "The checker "+f.Checker
	}
	disagree := "A checker compares o′ with o, so the failure is a disagreement between the two outputs: o′ may be wrong, or o may be wrong already and the change only brought it to light."
	switch {
	case f.Compared != nil:
		// A derived or semantic check: its Expected is no prediction of
		// the file, and it says what it compared.
		expects := f.Compared.Expects
		if expects == "" {
			expects = who + " derives from o what " + file + " in o′ must hold."
		}
		return reading{Expects: expects, Found: f.Message, Means: disagree}
	case f.Expected != "" && ev.okO && f.Expected == ev.o:
		found := "It changed."
		if s := ev.side; s != nil {
			found = fmt.Sprintf("It changed: %s of o not in o′, %s of o′ not in o.", plural(s.Removed, "line"), plural(s.Added+s.Unexpected, "line"))
		}
		return reading{
			Expects: "The mutation must leave " + file + " as it is: o′ must hold it byte for byte as o does" + checker + ".",
			Found:   found,
			Means:   disagree,
		}
	case f.Expected != "":
		found := "o′ differs from the prediction."
		if s := ev.side; s != nil && (s.Unexpected > 0 || s.Missing > 0) {
			found = fmt.Sprintf("o′ differs from the prediction: %s of o′ not predicted, %s missing from o′.", plural(s.Unexpected, "line"), plural(s.Missing, "predicted line"))
		}
		return reading{
			Expects: "The relation predicts " + file + " in o′ from o: the file of o with exactly the change the inserted declaration calls for" + checker + ".",
			Found:   found,
			Means:   "The prediction is built on o. " + disagree,
		}
	}
	return reading{
		Expects: who + " derives from o what " + file + " in o′ must hold.",
		Found:   f.Message,
		Means:   disagree,
	}
}

// status is the exit status or signal of a failed run, as a clause.
func status(f *result.Finding) string {
	switch {
	case f.Signal != "":
		return " (signal " + f.Signal + ")"
	case f.ExitCode != 0:
		return fmt.Sprintf(" (exit status %d)", f.ExitCode)
	}
	return ""
}

// minListed is the shortest list of o whose order reversedInBase judges:
// two names may be in either order for many reasons (sorting, say).
const minListed = 3

// reversedInBase looks in file of o for a list of names of the input in
// the reverse of their order in the input: consecutive lines alike but
// for one name of the input each (in one of the case forms C generators
// write names in). Such a list shows a fault in o itself, before any
// change. It returns the observation, or "" when there is none.
func reversedInBase(file, o, input string) string {
	names := inputNames(input)
	if len(names.order) == 0 {
		return ""
	}
	type item struct {
		frame string
		name  int // index in names.order
	}
	ls := lines(o)
	items := make([]item, len(ls))
	for i, l := range ls {
		items[i] = item{name: -1}
		if start, end, n, ok := names.last(l); ok {
			items[i] = item{frame: l[:start] + "\x00" + l[end:], name: n}
		}
	}
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[i].name >= 0 && items[j].frame == items[i].frame && items[j].name < items[j-1].name {
			j++
		}
		if j-i >= minListed {
			var inO, inInput []string
			for k := i; k < j; k++ {
				inO = append(inO, names.order[items[k].name])
			}
			for k := j - 1; k >= i; k-- {
				inInput = append(inInput, names.order[items[k].name])
			}
			return fmt.Sprintf("%s in o lists %s (lines %d–%d), the reverse of their order in the input (%s): the fault shows in the base output, before any change.",
				file, strings.Join(inO, ", "), i+1, j, strings.Join(inInput, ", "))
		}
		i = j
	}
	return ""
}

// nameIndex maps the forms of the names of an input to the order in
// which the input first mentions them.
type nameIndex struct {
	order []string       // names, in order of first mention
	forms map[string]int // a form of a name → its index in order
	// longest is the length of the longest form, parts the most parts of
	// words (see last) a form spans: bounds of where last looks.
	longest, parts int
}

// inputNames indexes the identifiers of input of two characters or more.
func inputNames(input string) nameIndex {
	ix := nameIndex{forms: map[string]int{}}
	seen := map[string]bool{}
	for _, w := range words(input) {
		if len(w) < 2 || seen[w] || isDigitByte(w[0]) {
			continue
		}
		seen[w] = true
		for _, form := range namecase.DefaultForms {
			fn, _ := namecase.Form(form)
			f := fn(w)
			if _, taken := ix.forms[f]; !taken {
				ix.forms[f] = len(ix.order)
				ix.longest = max(ix.longest, len(f))
				ix.parts = max(ix.parts, strings.Count(f, "_")+1)
			}
		}
		ix.order = append(ix.order, w)
	}
	return ix
}

// last finds the rightmost mention of a name of the index in line: a
// word, or a part of a word between underscores (the GREEN of
// LIGHT_STATE_GREEN), the longest one ending there.
//
// A mention starts where a part of a word starts (after a byte that is
// not of a word, or after an underscore) and spans as many parts as its
// form has at most: for each end, only the starts of the last ix.parts
// parts before it, and within ix.longest bytes, can begin a form, so that
// the time is linear in the length of the line (it was cubic: a line of
// 60 KB of parts took minutes).
func (ix nameIndex) last(line string) (start, end, name int, ok bool) {
	var starts []int // where the parts of words start, in order
	for s := 0; s < len(line); s++ {
		if line[s] != '_' && (s == 0 || !isWordByte(line[s-1]) || line[s-1] == '_') {
			starts = append(starts, s)
		}
	}
	k := len(starts) // starts[:k] begin before e
	for e := len(line); e > 0; e-- {
		for k > 0 && starts[k-1] >= e {
			k--
		}
		if !isWordByte(line[e-1]) || line[e-1] == '_' || e < len(line) && isWordByte(line[e]) && line[e] != '_' {
			continue
		}
		for _, s := range starts[max(0, k-ix.parts):k] { // the longest first
			if e-s > ix.longest {
				continue
			}
			if n, found := ix.forms[line[s:e]]; found {
				return s, e, n, true
			}
		}
	}
	return 0, 0, 0, false
}

// words splits text into identifiers.
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r > 0x7f || !isWordByte(byte(r)) })
}

func isWordByte(c byte) bool {
	return c == '_' || isDigitByte(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }
