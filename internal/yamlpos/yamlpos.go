// Package yamlpos decodes YAML with the position of every value kept, for
// errors that say file:line:col, and collects such errors so that one
// reading reports all of them. The configuration (package config), the
// relation files (relation/yamlrel) and the grammars (package grammar)
// share it.
package yamlpos

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Pos is a position in an input file.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a positioned error.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList collects the errors of an input file, so that one reading
// reports all of them, like go/scanner.ErrorList.
type ErrorList []*Error

// Add appends an error; nil is ignored.
func (l *ErrorList) Add(e *Error) {
	if e != nil {
		*l = append(*l, e)
	}
}

// Error prints the errors one a line, in the order of their positions.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns the list sorted by position, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// Sort sorts the list by position: file, line, column.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
}

// Errorf returns a positioned error.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// yamlError is the interface of goccy/go-yaml's positioned errors.
type yamlError interface {
	error
	GetToken() *token.Token
	GetMessage() string
}

// Decode decodes YAML strictly into v: unknown fields and duplicate keys
// are errors, and every error carries file:line:col. Collections nested
// deeper than MaxDepth are refused before decoding.
func Decode(file string, data []byte, v any) error {
	if err := checkDepth(file, data, MaxDepth); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data), yaml.Strict(), yaml.DisallowUnknownField())
	ctx := context.WithValue(context.Background(), fileKey{}, file)
	if err := dec.DecodeContext(ctx, v); err != nil {
		if errors.Is(err, errEmpty) || err.Error() == "EOF" {
			return Errorf(Pos{File: file, Line: 1, Col: 1}, "empty file")
		}
		var ye yamlError
		if errors.As(err, &ye) && ye.GetToken() != nil {
			p := ye.GetToken().Position
			msg := ye.GetMessage()
			// The library words unknown fields as "unknown field "x""; keep it, but
			// drop the trailing source snippet some messages carry.
			msg, _, _ = strings.Cut(msg, "\n")
			msg = plainTypeError(msg)
			return Errorf(Pos{File: file, Line: p.Line, Col: p.Column}, "%s", msg)
		}
		var pe *Error
		if errors.As(err, &pe) {
			return pe
		}
		return Errorf(Pos{File: file}, "%v", err)
	}
	return nil
}

var errEmpty = errors.New("empty")

// typeErrorRx matches the library's type mismatch messages, which name Go
// types and struct fields a user has never seen.
var typeErrorRx = regexp.MustCompile(`^cannot unmarshal (.+?) into Go (?:struct field \S+|value) of type (\S+)(.*)$`)

// plainTypeError words a type mismatch in terms of YAML.
func plainTypeError(msg string) string {
	m := typeErrorRx.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := "a value of another kind"
	switch {
	case strings.HasPrefix(m[2], "uint"):
		want = "a non-negative integer"
	case strings.HasPrefix(m[2], "int"):
		want = "an integer"
	case m[2] == "string":
		want = "a string"
	case m[2] == "bool":
		want = "true or false"
	case strings.HasPrefix(m[2], "[]"):
		want = "a sequence"
	case strings.HasPrefix(m[2], "map["):
		want = "a mapping"
	}
	if strings.Contains(m[3], "overflow") {
		return fmt.Sprintf("want %s, found %s (out of range)", want, m[1])
	}
	return fmt.Sprintf("want %s, found %s", want, m[1])
}

// Int is a YAML integer that remembers where it was written.
type Int struct {
	Value int64
	Pos   Pos
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (i *Int) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	i.Pos = PosOf(ctx, n)
	if v, ok := n.(*ast.IntegerNode); ok {
		switch x := v.Value.(type) {
		case int64:
			i.Value = x
			return nil
		case uint64:
			if x <= math.MaxInt64 {
				i.Value = int64(x)
				return nil
			}
		}
		return &Error{Pos: i.Pos, Msg: fmt.Sprintf("integer %s out of range", v.GetToken().Value)}
	}
	return &Error{Pos: i.Pos, Msg: "want an integer, found " + describe(n)}
}

// At returns a positioned error at the integer.
func (i Int) At(format string, args ...any) *Error { return Errorf(i.Pos, format, args...) }

// describe names the kind of a YAML node for an error message.
func describe(n ast.Node) string {
	switch n.Type() {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a sequence"
	case ast.NullType:
		return "nothing"
	}
	if tk := n.GetToken(); tk != nil {
		return fmt.Sprintf("%q", tk.Value)
	}
	return n.Type().String()
}

type fileKey struct{}

// String is a YAML scalar that remembers where it was written.
type String struct {
	Value string
	Pos   Pos
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *String) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	tk := n.GetToken()
	file, _ := ctx.Value(fileKey{}).(string)
	if tk != nil {
		s.Pos = Pos{File: file, Line: tk.Position.Line, Col: tk.Position.Column}
	}
	switch v := n.(type) {
	case *ast.StringNode:
		s.Value = v.Value
	case *ast.LiteralNode:
		s.Value = v.Value.Value
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		s.Value = tk.Value
	case *ast.NullNode:
		s.Value = ""
	default:
		return &Error{Pos: s.Pos, Msg: "want a string, found " + describe(n)}
	}
	return nil
}

// At returns a positioned error at the string.
func (s String) At(format string, args ...any) *Error { return Errorf(s.Pos, format, args...) }

// PosOf returns the position of a YAML node being decoded by Decode.
func PosOf(ctx context.Context, n ast.Node) Pos {
	file, _ := ctx.Value(fileKey{}).(string)
	p := Pos{File: file}
	if tk := n.GetToken(); tk != nil {
		p.Line, p.Col = tk.Position.Line, tk.Position.Column
	}
	return p
}
