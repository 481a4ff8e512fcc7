package yamlrel

// The errors of templates at their place in the relation file: text/template
// numbers lines and columns within the template, which may be the third
// line of a block scalar or follow escapes of a quoted one.

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// offsetOf is the byte offset in src of the 1-based line and 0-based byte
// column that text/template reports.
func offsetOf(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return min(off+max(col, 0), len(src))
}

// parseErrRE matches the rest of a parse error after "template: NAME:".
var parseErrRE = regexp.MustCompile(`^(\d+)(?::(\d+))?: (.*)$`)

// parseError is the error of a template that does not parse, at the line
// of s that text/template names and the column of what it found there.
func parseError(s yamlpos.String, err error) *yamlpos.Error {
	msg := strings.TrimPrefix(err.Error(), "template: "+s.Pos.String()+":")
	sm := parseErrRE.FindStringSubmatch(msg)
	if sm == nil {
		return s.At("bad template: %s", msg)
	}
	line, _ := strconv.Atoi(sm[1])
	msg = sm[3]
	off := offsetOf(s.Value, line, 0)
	if sm[2] != "" {
		col, _ := strconv.Atoi(sm[2])
		off = offsetOf(s.Value, line, col)
	} else {
		off += culprit(lineAt(s.Value, off), msg)
	}
	if m := undefinedRE.FindStringSubmatch(msg); m != nil {
		msg += suggest.DidYouMean(m[1], funcNames())
	}
	return yamlpos.Errorf(s.PosAt(off), "bad template: %s", msg)
}

// undefinedRE matches the parse error of a misspelt function.
var undefinedRE = regexp.MustCompile(`^function "([^"]*)" not defined$`)

func funcNames() []string {
	names := make([]string, 0, len(funcList)+len(goBuiltins))
	for _, f := range funcList {
		names = append(names, f.Name)
	}
	return append(names, goBuiltins...)
}

// goBuiltins are text/template's own functions that funcList leaves as
// they are.
var goBuiltins = []string{"and", "call", "eq", "ge", "gt", "index", "le", "len", "lt", "ne", "not", "or", "slice"}

func lineAt(src string, off int) string {
	line, _, _ := strings.Cut(src[off:], "\n")
	return line
}

// culpritRE finds what a parse error names: a character, a token, a
// function.
var culpritRE = regexp.MustCompile(`^(?:bad character U\+[0-9A-F]+ '(.+)'|unexpected "(.+?)" in|unexpected (.+?) in|function "(.+)" not defined|undefined variable "(.+)")`)

// culprit is the column in the template's line of what the parse error
// msg names, in the line's actions when they hold it; the first column
// that is not white space otherwise.
func culprit(line, msg string) int {
	first := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsSpace(r) })
	if first < 0 {
		first = 0
	}
	if strings.HasPrefix(msg, "unclosed action") {
		if i := strings.LastIndex(line, "{{"); i >= 0 {
			return i
		}
	}
	sm := culpritRE.FindStringSubmatch(msg)
	if sm == nil {
		return first
	}
	what := ""
	for _, g := range sm[1:] {
		if g != "" {
			what = g
			break
		}
	}
	if what == "" {
		return first
	}
	from := max(strings.Index(line, "{{"), 0)
	if i := strings.Index(line[from:], what); i >= 0 {
		return from + i
	}
	if i := strings.Index(line, what); i >= 0 {
		return i
	}
	return first
}

// execErrRE matches the rest of an evaluation error after "template:
// NAME:": the line and column of the action.
var execErrRE = regexp.MustCompile(`^(\d+):(\d+): `)

// execError is an evaluation error of t at its place in the relation file,
// without text/template's prefix.
func (t *tmpl) execError(err error) error {
	msg := err.Error()
	pos := t.pos
	rest := strings.TrimPrefix(msg, "template: "+t.pos.String()+":")
	if sm := execErrRE.FindStringSubmatch(rest); sm != nil {
		line, _ := strconv.Atoi(sm[1])
		col, _ := strconv.Atoi(sm[2])
		pos = t.str.PosAt(offsetOf(t.src, line, col))
	}
	return yamlpos.Errorf(pos, "%s", execMessage(err))
}
