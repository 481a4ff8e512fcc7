package oracle

import (
	"regexp/syntax"
	"unicode"
)

// DeadPlaceAlternatives returns the alternatives of pattern (its parts
// between the |s outside brackets and parentheses) that match no place
// of Order, whatever the line: a place is the indentation (spaces and
// tabs) and then one word that holds at least one @, the masked name,
// with no space, tab or ASCII digit in it (numbers are masked as #). An
// alternative that needs a space after the word (`\[#\] = @`), a digit or
// a line end inside the key can never match, and `places` or
// `not_places` with it does not say what its author meant.
//
// The answer errs on the side of matching: a word boundary is taken as
// passable wherever a word or non-word character may follow, and an
// alternative that does not parse alone (a pattern with a flag group
// such as (?i) outside parentheses is taken whole) is never reported.
func DeadPlaceAlternatives(pattern string) []Alternative {
	var dead []Alternative
	for _, alt := range topAlternatives(pattern) {
		re, err := syntax.Parse(alt.Text, syntax.Perl)
		if err != nil {
			continue
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			continue
		}
		if !matchesSomePlace(prog) {
			dead = append(dead, alt)
		}
	}
	return dead
}

// Alternative is a part of a pattern between |s.
type Alternative struct {
	Text   string
	Offset int // of Text in the pattern
}

// topAlternatives splits pattern at the |s outside brackets and
// parentheses. A flag group outside parentheses ((?i) alone) sets flags
// for the alternatives after it: the pattern is then one alternative.
func topAlternatives(p string) []Alternative {
	var out []Alternative
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) && p[i+1] == 'Q' {
				if e := indexFrom(p, `\E`, i+2); e >= 0 {
					i = e + 1
				} else {
					i = len(p)
				}
				continue
			}
			i++
		case '[':
			i = classEnd(p, i)
		case '(':
			if depth == 0 && i+1 < len(p) && p[i+1] == '?' && flagGroup(p[i+2:]) {
				return []Alternative{{p, 0}}
			}
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, Alternative{p[start:i], start})
				start = i + 1
			}
		}
	}
	return append(out, Alternative{p[start:], start})
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// flagGroup reports whether s, what follows "(?", is a flag group
// without a colon: flags up to the closing parenthesis.
func flagGroup(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ')':
			return i > 0
		case c == '-' || c == 'i' || c == 'm' || c == 's' || c == 'U':
		default:
			return false
		}
	}
	return false
}

// classEnd is the index of the ] that closes the class opened at p[i].
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++ // a ] first is a literal
	}
	for ; j < len(p); j++ {
		switch {
		case p[j] == '\\':
			j++
		case p[j] == '[' && j+1 < len(p) && p[j+1] == ':':
			if e := indexFrom(p, ":]", j+2); e >= 0 {
				j = e + 1
			}
		case p[j] == ']':
			return j
		}
	}
	return len(p)
}

// The characters a place holds, in classes that the check of a place
// tells apart: a space or tab (only in the indentation), the @ of a name,
// a word character, any other (no ASCII digit: they are masked).
const (
	chSpace = iota
	chAt
	chWord
	chOther
	nClasses
)

// next-character outcomes an empty-width assertion may require
const (
	nextEnd = 1 << iota
	nextWord
	nextNonWord
	nextAny = nextEnd | nextWord | nextNonWord
)

// prev kinds: what came before the position
const (
	prevStart = iota
	prevWord
	prevNonWord
)

// placeState is where a reading of a place stands: 0 before anything,
// 1 in the indentation, 2 in the word; at: an @ was read.
type placeState struct {
	phase int
	at    bool
}

func (q placeState) step(c int) (placeState, bool) {
	switch c {
	case chSpace:
		if q.phase == 2 {
			return q, false
		}
		return placeState{1, false}, true
	case chAt:
		return placeState{2, true}, true
	default:
		return placeState{2, q.at}, true
	}
}

func (q placeState) accepting() bool { return q.phase == 2 && q.at }

// canFinish reports whether some rest read from q, whose first
// character satisfies mask, makes a place.
func (q placeState) canFinish(mask int) bool {
	if mask&nextEnd != 0 && q.accepting() {
		return true
	}
	for c := range nClasses {
		if mask&classNext(c) == 0 {
			continue
		}
		// after any character a place reads, an @ (at most) ends one
		if _, ok := q.step(c); ok {
			return true
		}
	}
	return false
}

func classNext(c int) int {
	if c == chWord {
		return nextWord
	}
	return nextNonWord
}

func classPrev(c int) int {
	if c == chWord {
		return prevWord
	}
	return prevNonWord
}

// consumes reports whether instruction in can read a character of class
// c.
func consumes(in *syntax.Inst, c int) bool {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	case syntax.InstRune1, syntax.InstRune:
	default:
		return false
	}
	switch c {
	case chSpace:
		return in.MatchRune(' ') || in.MatchRune('\t')
	case chAt:
		return in.MatchRune('@')
	}
	// a word or other character: any rune of the instruction's ranges
	// of that class (folded case included) but the ASCII digits
	want := func(r rune) bool {
		if r == ' ' || r == '\t' || r == '\n' || r == '@' || r >= '0' && r <= '9' {
			return false
		}
		w := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		return w == (c == chWord)
	}
	rs := in.Rune
	if in.Op == syntax.InstRune1 || len(rs) == 1 {
		r := rs[0]
		if want(r) {
			return true
		}
		if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if want(f) {
					return true
				}
			}
		}
		return false
	}
	for k := 0; k+1 < len(rs); k += 2 {
		lo, hi := rs[k], rs[k+1]
		if c == chOther && hi > 'z' {
			return true // a rune above z that is no word character
		}
		for r := lo; r <= hi && r <= 'z'; r++ {
			if want(r) {
				return true
			}
		}
	}
	return false
}

// matchesSomePlace reports whether prog, searched in a string as
// regexp's MatchString does, matches some place: it explores the
// product of the program and the reading of a place (what came before
// the match: any beginning of a place).
func matchesSomePlace(prog *syntax.Prog) bool {
	type state struct {
		pc   uint32
		q    placeState
		prev int
		mask int
	}
	seen := map[state]bool{}
	var stack []state
	push := func(s state) {
		if s.mask != 0 && !seen[s] {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	// the beginnings of a place, and what ends them
	type begin struct {
		q    placeState
		prev int
	}
	begins := map[begin]bool{{placeState{}, prevStart}: true}
	todo := []begin{{placeState{}, prevStart}}
	for len(todo) > 0 {
		b := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		push(state{uint32(prog.Start), b.q, b.prev, nextAny})
		for c := range nClasses {
			if q2, ok := b.q.step(c); ok {
				nb := begin{q2, classPrev(c)}
				if !begins[nb] {
					begins[nb] = true
					todo = append(todo, nb)
				}
			}
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		in := &prog.Inst[s.pc]
		switch in.Op {
		case syntax.InstMatch:
			if s.q.canFinish(s.mask) {
				return true
			}
		case syntax.InstFail:
		case syntax.InstAlt, syntax.InstAltMatch:
			push(state{in.Out, s.q, s.prev, s.mask})
			push(state{in.Arg, s.q, s.prev, s.mask})
		case syntax.InstCapture, syntax.InstNop:
			push(state{in.Out, s.q, s.prev, s.mask})
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			mask := s.mask
			if op&(syntax.EmptyBeginLine|syntax.EmptyBeginText) != 0 && s.prev != prevStart {
				continue // a place holds no line end
			}
			if op&(syntax.EmptyEndLine|syntax.EmptyEndText) != 0 {
				mask &= nextEnd
			}
			if op&syntax.EmptyWordBoundary != 0 {
				if s.prev == prevWord {
					mask &= nextNonWord | nextEnd
				} else {
					mask &= nextWord
				}
			}
			if op&syntax.EmptyNoWordBoundary != 0 {
				if s.prev == prevWord {
					mask &= nextWord
				} else {
					mask &= nextNonWord | nextEnd
				}
			}
			push(state{in.Out, s.q, s.prev, mask})
		default:
			for c := range nClasses {
				if s.mask&classNext(c) == 0 || !consumes(in, c) {
					continue
				}
				if q2, ok := s.q.step(c); ok {
					push(state{in.Out, q2, classPrev(c), nextAny})
				}
			}
		}
	}
	return false
}
