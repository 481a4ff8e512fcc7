package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Pos is a position in a configuration file.
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

// Error is a positioned configuration error.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

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
// are errors, and every error carries file:line:col.
func Decode(file string, data []byte, v any) error {
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
		return &Error{Pos: s.Pos, Msg: fmt.Sprintf("expected a string, found %s", n.Type())}
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
