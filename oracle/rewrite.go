package oracle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/tree"
)

// rewrite applies a Substitute or Renumber edit to the lines of its range,
// in place. A substitution that changes no line is an error: the relation
// expected a line that o does not have. A renumbering may meet no line (the
// items it renumbers may all be gone from the range).
func rewrite(e *Edit, lines []string) error {
	if e.Pattern == nil {
		return errors.New("no pattern")
	}
	switch e.Op {
	case Substitute:
		n := 0
		for i, l := range lines {
			if !e.Pattern.MatchString(l) {
				continue
			}
			s, err := substitute(e, l)
			if err != nil {
				return err
			}
			lines[i] = s
			n++
		}
		if n == 0 {
			return fmt.Errorf("no line of the range matches /%s/", e.Pattern)
		}
	case Renumber:
		if e.Pattern.NumSubexp() < 1 {
			return fmt.Errorf("/%s/ has no group for the number", e.Pattern)
		}
		for i, l := range lines {
			m := e.Pattern.FindStringSubmatchIndex(l)
			if m == nil {
				continue
			}
			// The number is the first group that took part in the match,
			// so that alternatives can each have their own group.
			g := 1
			for g < len(m)/2 && m[2*g] < 0 {
				g++
			}
			if g == len(m)/2 {
				continue
			}
			beg, end := m[2*g], m[2*g+1]
			n, err := strconv.Atoi(l[beg:end])
			if err != nil {
				return fmt.Errorf("line %q: %q is not a number", l, l[beg:end])
			}
			lines[i] = l[:beg] + strconv.Itoa(n+e.By) + l[end:]
		}
	}
	return nil
}

// substitute rewrites every match of e's pattern in the line l: with
// e.Replace's text when it has one, else with With's expansion.
func substitute(e *Edit, l string) (string, error) {
	if e.Replace == nil {
		return e.Pattern.ReplaceAllString(l, e.With), nil
	}
	var b strings.Builder
	last := 0
	for _, m := range e.Pattern.FindAllStringSubmatchIndex(l, -1) {
		groups := make([]string, len(m)/2)
		for g := range groups {
			if m[2*g] >= 0 {
				groups[g] = l[m[2*g]:m[2*g+1]]
			}
		}
		s, err := e.Replace(groups)
		if err != nil {
			return "", err
		}
		b.WriteString(l[last:m[0]])
		b.WriteString(s)
		last = m[1]
	}
	b.WriteString(l[last:])
	return b.String(), nil
}

func pathString(path []Matcher) string {
	parts := make([]string, len(path))
	for i, m := range path {
		parts[i] = m.String()
	}
	return strings.Join(parts, " … ")
}

// Creation checks that File is absent from o and present in o′ with exactly
// Content: the output a mutation adds as a file of its own (a class per
// file, a module per type).
type Creation struct {
	Name    string
	File    string
	Content string
}

// Check runs the creation check.
func (c *Creation) Check(o, o2 tree.Tree) []Failure {
	name := c.Name
	if name == "" {
		name = "created:" + c.File
	}
	if b, ok := o[c.File]; ok {
		return []Failure{{Checker: name, File: c.File, Message: fmt.Sprintf("%s is already in o, but the mutation must create it", c.File), Actual: string(b)}}
	}
	act, ok := o2[c.File]
	if !ok {
		return []Failure{{Checker: name, File: c.File, Message: fmt.Sprintf("%s is missing from o′", c.File), Expected: c.Content}}
	}
	if string(act) == c.Content {
		return nil
	}
	return []Failure{{
		Checker: name, File: c.File,
		Message:  fmt.Sprintf("%s in o′ differs from the predicted content", c.File),
		Expected: c.Content, Actual: string(act),
		Diff: Diff(c.File, c.Content, string(act)),
	}}
}
