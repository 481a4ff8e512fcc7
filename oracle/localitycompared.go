package oracle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/mcpt-tool/mcpt/result"
)

// unexplainedCompared is the evidence of the lines of file f that
// nothing explains (c.added, c.removed).
func (l *Locality) unexplainedCompared(f string, c *changes) *result.Compared {
	cmp := &result.Compared{Kind: result.CmpLocality, Expects: l.expects(f)}
	p := c.placer()
	for _, x := range c.added {
		if i := p.added(x); i >= 0 {
			cmp.Add(result.CmpLine{O2: c.lineB(i), Role: result.RoleUnexplained,
				Why: "added: it mentions no fresh name, and no line of o became it by a change of its numbers or its punctuation"})
		}
	}
	for _, x := range c.removed {
		if i := p.removed(x); i >= 0 {
			cmp.Add(result.CmpLine{O: c.lineA(i), Role: result.RoleUnexplained,
				Why: "removed: no line of o′ takes its place with other numbers, other punctuation or the new name added"})
		}
	}
	return sortCompared(cmp)
}

// changedCompared is the evidence of the old lines of file f changed
// beyond what the relation allows (lines, as o′ has them), each facing
// the line of o it was: the same as it but for what same lets differ.
func (l *Locality) changedCompared(f string, c *changes, lines []string, same func(a, b string) bool, why string) *result.Compared {
	cmp := &result.Compared{Kind: result.CmpLocality, Expects: l.expects(f)}
	p := c.placer()
	for _, x := range lines {
		i := p.added(x)
		if i < 0 {
			continue
		}
		line := result.CmpLine{O2: c.lineB(i), Role: result.RoleOverLimit, Why: why}
		if k := p.old(x, same); k >= 0 {
			line.O = c.lineA(k)
		}
		cmp.Add(line)
	}
	return sortCompared(cmp)
}

func sameNumbers(a, b string) bool { return maskNumbers(a) == maskNumbers(b) }

func sameWords(a, b string) bool {
	return strings.Join(words(maskNumbers(a)), " ") == strings.Join(words(maskNumbers(b)), " ")
}

// sortCompared puts the lines of a comparison in file order: by their
// line in o′, or in o.
func sortCompared(cmp *result.Compared) *result.Compared {
	at := func(l result.CmpLine) int {
		if l.O2 != nil {
			return l.O2.N
		}
		if l.O != nil {
			return l.O.N
		}
		return 0
	}
	slices.SortStableFunc(cmp.Lines, func(a, b result.CmpLine) int { return at(a) - at(b) })
	return cmp
}

// lineA and lineB are line i of the lines of o and o′ compared, with its
// number and as it is in the file.
func (c *changes) lineA(i int) *result.LineRef { return result.Ref(c.pre+i+1, c.rawA[i]) }
func (c *changes) lineB(i int) *result.LineRef { return result.Ref(c.pre+i+1, c.rawB[i]) }

// placer finds, for the page of a failure, where the lines of a change
// are: the check compares the lines as multisets and keeps their texts
// only. A line added to o′ is one the line diff of o and o′ inserts, with
// that text, else the first line with that text not placed yet; a line
// removed from o alike.
type placer struct {
	c            *changes
	ins, del     map[string][]int // the lines the diff inserts into o′ and deletes from o, by text
	dels         []int            // the lines the diff deletes, in order
	usedA, usedB []bool
}

func (c *changes) placer() *placer {
	p := &placer{c: c, ins: map[string][]int{}, del: map[string][]int{}, usedA: make([]bool, len(c.la)), usedB: make([]bool, len(c.lb))}
	for _, d := range lcs.DiffLines(c.la, c.lb) {
		for i := d.Start; i < d.End; i++ {
			p.del[c.la[i]] = append(p.del[c.la[i]], i)
			p.dels = append(p.dels, i)
		}
		for j := d.ReplStart; j < d.ReplEnd; j++ {
			p.ins[c.lb[j]] = append(p.ins[c.lb[j]], j)
		}
	}
	return p
}

func (p *placer) added(x string) int   { return take(p.ins, p.usedB, p.c.lb, x) }
func (p *placer) removed(x string) int { return take(p.del, p.usedA, p.c.la, x) }

// old is the line of o, deleted by the diff and not placed yet, that the
// line x of o′ was changed from.
func (p *placer) old(x string, same func(a, b string) bool) int {
	for _, i := range p.dels {
		if !p.usedA[i] && same(p.c.la[i], x) {
			p.usedA[i] = true
			return i
		}
	}
	return -1
}

// take places a line of text x: the first of queue[x] not placed yet,
// else the first line of lines with that text not placed yet; -1 when
// there is none.
func take(queue map[string][]int, used []bool, lines []string, x string) int {
	for len(queue[x]) > 0 {
		i := queue[x][0]
		queue[x] = queue[x][1:]
		if !used[i] {
			used[i] = true
			return i
		}
	}
	for i, l := range lines {
		if l == x && !used[i] {
			used[i] = true
			return i
		}
	}
	return -1
}

// expects says in words what the check allows in file f.
func (l *Locality) expects(f string) string {
	var allowed []string
	allowed = append(allowed, "mentions a fresh name ("+l.freshNames()+")")
	if l.Numbers != 0 {
		s := "is a line of o changed only in its numbers"
		if l.By != 0 {
			s += fmt.Sprintf(", each by %+d", l.By)
		}
		if l.Numbers != Any {
			s += fmt.Sprintf(" (%s in all)", atMost(l.Numbers))
		}
		allowed = append(allowed, s)
	}
	if l.Punctuation != 0 {
		s := "is a line of o changed only in its list punctuation"
		if l.Punctuation != Any {
			s += fmt.Sprintf(" (%s in all)", atMost(l.Punctuation))
		}
		allowed = append(allowed, s)
	}
	if len(l.Also) > 0 {
		var pats []string
		for _, re := range l.Also {
			pats = append(pats, re.String())
		}
		allowed = append(allowed, "is text an also pattern matches ("+strings.Join(pats, ", ")+")")
	}
	if len(l.Grows) > 0 {
		allowed = append(allowed, "is a line of o that may grow (grows) and gained words")
	}
	near := "blank lines and lines of punctuation alone next to the new declaration's lines are its own"
	if l.Hunks {
		near = "every added line of a changed region that mentions a fresh name is the new declaration's"
	}
	return fmt.Sprintf("Every line of %s that o′ adds or removes %s; %s.", f, strings.Join(allowed, ", or "), near)
}

func atMost(n int) string {
	if n == 1 {
		return "at most 1 line"
	}
	return fmt.Sprintf("at most %d lines", n)
}

// freshNames lists the fresh names with their forms.
func (l *Locality) freshNames() string {
	var out []string
	for _, n := range l.Fresh {
		var forms []string
		for _, f := range n.Forms {
			if f != "" && !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
		out = append(out, strings.Join(forms, ", "))
	}
	return strings.Join(out, "; ")
}
