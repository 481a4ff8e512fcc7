// Package token defines the lexical tokens of CLL and the source positions
// that every later stage of the front end reports errors against.
package token

import "fmt"

// Pos is a position in a CLL source: a file name, a 1-based line and a
// 1-based column counted in characters (a tab counts as one), plus the byte
// offset from the start of the file.
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether the position is set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col.
func (p Pos) String() string {
	f := p.File
	if f == "" {
		f = "<input>"
	}
	if !p.IsValid() {
		return f
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// Error is a positioned error of the CLL front end.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of positioned errors in source order.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil when the list is empty, and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
