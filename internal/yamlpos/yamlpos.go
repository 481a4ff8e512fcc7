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
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/mcpt-tool/mcpt/internal/suggest"
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

func (e *Error) Error() string {
	if e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList collects the errors of an input file, so that one reading
// reports all of them, like go/scanner.ErrorList.
type ErrorList []*Error

// Add appends an error; nil is ignored.
func (l *ErrorList) Add(e *Error) {
	if e != nil {
		*l = append(*l, e)
	}
}

// AddError appends the errors err holds: those of an ErrorList or of
// errors joined, a positioned error, or err itself without a position;
// nil is ignored.
func (l *ErrorList) AddError(err error) {
	var list ErrorList
	var pe *Error
	switch {
	case err == nil:
	case errors.As(err, &list):
		*l = append(*l, list...)
	case errors.As(err, &pe) && pe.Error() == err.Error():
		l.Add(pe)
	default:
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				l.AddError(e)
			}
			return
		}
		l.Add(&Error{Msg: err.Error()})
	}
}

// MaxErrors is how many errors an ErrorList prints; it says how many more
// there are.
const MaxErrors = 20

// Error prints the errors one a line, in the order of their positions, at
// most MaxErrors of them.
func (l ErrorList) Error() string {
	lines := make([]string, 0, min(len(l), MaxErrors)+1)
	for i, e := range l {
		if i == MaxErrors {
			lines = append(lines, fmt.Sprintf("and %d more errors", len(l)-MaxErrors))
			break
		}
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

// Err returns the list sorted by position, each error once, or nil when
// it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return slices.CompactFunc(l, func(a, b *Error) bool { return *a == *b })
}

// Without returns the errors of l at none of the positions of the errors
// of other: the checks of a value that did not decode say nothing more.
func (l ErrorList) Without(other ErrorList) ErrorList {
	at := map[Pos]bool{}
	for _, e := range other {
		at[e.Pos] = true
	}
	var out ErrorList
	for _, e := range l {
		if !at[e.Pos] {
			out = append(out, e)
		}
	}
	return out
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

// Decode decodes YAML into v and reports every unknown key, key given
// twice and value of the wrong type at once, each at file:line:col (see
// DecodeAll).
func Decode(file string, data []byte, v any) error {
	errs, _ := DecodeAll(file, data, v)
	return errs.Err()
}

// DecodeAll decodes YAML into v. A key that no field of v's type has, a key
// given twice and a value that a positioned type (Int, String, a mapping
// decoded by DecodeFields) cannot take are errors that do not stop it: all
// of them are in errs, so that one reading reports every mistake. ok is
// false when the decoding stopped short (text that is no YAML, a value it
// could not skip, collections nested deeper than MaxDepth): v is then
// incomplete, and checking its values would mislead. When ok, every value
// v holds is one the file gave; those in error are left zero.
func DecodeAll(file string, data []byte, v any) (errs ErrorList, ok bool) {
	return DecodeAllWarn(file, data, v, nil)
}

// DecodeAllWarn is DecodeAll that also accepts the old names of keys: a
// field tagged was:"OLD…" (names parted by spaces) takes a key spelled
// OLD as if it were spelled by its yaml tag, and a warning at the key
// naming the new spelling goes to warns (when not nil), once per key
// written.
func DecodeAllWarn(file string, data []byte, v any, warns *ErrorList) (errs ErrorList, ok bool) {
	if err := checkDepth(file, data, MaxDepth); err != nil {
		errs.Add(err)
		return errs, false
	}
	var renamed ast.Node // the document, when a key of it was renamed
	if f, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey()); err == nil {
		for _, doc := range f.Docs {
			if doc.Body != nil {
				kc := keyCheck{file: file, errs: &errs, warns: warns}
				kc.check(doc.Body, reflect.TypeOf(v))
				if kc.renamed && renamed == nil {
					renamed = doc.Body
				}
			}
		}
	}
	dec := newFileDecoder(data)
	ctx := context.WithValue(context.WithValue(context.Background(), fileKey{}, file), collectorKey{}, &errs)
	ctx = context.WithValue(ctx, dataKey{}, &fileText{data: data})
	ctx = context.WithValue(ctx, warnKey{}, warns)
	ctx = context.WithValue(ctx, decoderKey{}, dec)
	dec.mu.Lock()
	defer dec.mu.Unlock()
	var err error
	if renamed != nil {
		// The keys are renamed in that tree, not in data.
		err = dec.dec.DecodeFromNodeContext(ctx, renamed, v)
	} else {
		err = dec.dec.DecodeContext(ctx, v)
	}
	if err != nil {
		errs.Add(decodeError(file, err))
		return errs, false
	}
	return errs, true
}

// Deferred is a YAML value kept to decode later into a type known only
// then (the spec of a checker kind that the value's key names), with what
// the decoding of its file had: the file's name and text, its warnings.
type Deferred struct {
	Node  ast.Node // nil: no value
	file  string
	text  *fileText
	warns *ErrorList
	dec   *fileDecoder
}

// fileDecoder is the decoder of one file, shared by the values deferred
// while decoding it: it has read the file and its anchors once, which the
// aliases of every deferred value may name. A file of many checks (10,000
// relations) is then read once, not once per check.
type fileDecoder struct {
	mu  sync.Mutex
	dec *yaml.Decoder
}

// decodersMade counts the file decoders made, for the test that a file is
// read once however many values it defers.
var decodersMade atomic.Int64

func newFileDecoder(data []byte) *fileDecoder {
	decodersMade.Add(1)
	return &fileDecoder{dec: yaml.NewDecoder(bytes.NewReader(data), yaml.AllowDuplicateMapKey())}
}

// Defer keeps the node n, met while DecodeAllWarn decodes a file.
func Defer(ctx context.Context, n ast.Node) Deferred {
	file, _ := ctx.Value(fileKey{}).(string)
	text, _ := ctx.Value(dataKey{}).(*fileText)
	warns, _ := ctx.Value(warnKey{}).(*ErrorList)
	dec, _ := ctx.Value(decoderKey{}).(*fileDecoder)
	return Deferred{Node: n, file: file, text: text, warns: warns, dec: dec}
}

// Decode decodes the value into v as DecodeAllWarn decodes a file: every
// unknown key, key given twice and value of the wrong kind is in errs,
// and an old name of a key is a warning of the file's.
func (d Deferred) Decode(v any) (errs ErrorList, ok bool) {
	if d.Node == nil {
		return nil, true
	}
	kc := keyCheck{file: d.file, errs: &errs, warns: d.warns}
	kc.check(d.Node, reflect.TypeOf(v))
	// The file's decoder has read the file and its anchors, which the
	// value's aliases may name. A decoder busy with another value (this
	// value is decoded inside it, or at the same time) is not shared: a
	// decoder of its own reads the file again.
	dec := d.dec
	if dec == nil || !dec.mu.TryLock() {
		dec = newFileDecoder(d.text.bytes())
		dec.mu.Lock()
	}
	defer dec.mu.Unlock()
	ctx := context.WithValue(context.WithValue(context.Background(), fileKey{}, d.file), collectorKey{}, &errs)
	ctx = context.WithValue(ctx, dataKey{}, d.text)
	ctx = context.WithValue(ctx, warnKey{}, d.warns)
	ctx = context.WithValue(ctx, decoderKey{}, d.dec)
	if err := dec.dec.DecodeFromNodeContext(ctx, d.Node, v); err != nil {
		errs.Add(decodeError(d.file, err))
		return errs, false
	}
	return errs, true
}

// decodeError is the positioned error of a decoding that stopped.
func decodeError(file string, err error) *Error {
	if errors.Is(err, errEmpty) || err.Error() == "EOF" {
		return Errorf(Pos{File: file, Line: 1, Col: 1}, "empty file")
	}
	var ye yamlError
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		// Drop the trailing source snippet some messages carry.
		msg, _, _ := strings.Cut(ye.GetMessage(), "\n")
		return Errorf(Pos{File: file, Line: p.Line, Col: p.Column}, "%s", plainTypeError(msg))
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return Errorf(Pos{File: file}, "%v", err)
}

// collectorKey keys the error list of a DecodeAll in its context,
// warnKey its warning list.
type (
	collectorKey struct{}
	warnKey      struct{}
)

// report records err in the error list of the DecodeAll that decodes, so
// that the decoding goes on, and returns nil; outside one, it returns err.
func report(ctx context.Context, err *Error) error {
	if l, ok := ctx.Value(collectorKey{}).(*ErrorList); ok {
		l.Add(err)
		return nil
	}
	return err
}

// keyCheck reports the keys of a YAML tree that the type it decodes into
// has no field for, and the keys given twice; it renames the keys written
// with a field's old name (was:"…") to its name, with a warning.
type keyCheck struct {
	file        string
	errs, warns *ErrorList
	renamed     bool // a key was renamed
}

// check checks the node n, decoded into the type t, through every mapping
// and sequence that t's structs, maps and slices decode. A type that
// decodes itself (with an UnmarshalYAML method) checks its own keys.
func (kc *keyCheck) check(n ast.Node, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := reflect.PointerTo(t).MethodByName("UnmarshalYAML"); ok {
		return
	}
	switch x := n.(type) {
	case *ast.AnchorNode:
		kc.check(x.Value, t)
		return
	case *ast.TagNode:
		kc.check(x.Value, t)
		return
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		m, ok := n.(ast.MapNode)
		if !ok {
			return // not a mapping: the decoding says so
		}
		var fields map[string]reflect.Type
		var names []string
		var olds map[string]string
		if t.Kind() == reflect.Struct {
			fields = map[string]reflect.Type{}
			fieldTypes(t, fields)
			for name := range fields {
				names = append(names, name)
			}
			olds = oldNames(t)
		}
		first := map[string]Pos{}
		for it := m.MapRange(); it.Next(); {
			k := it.Key()
			if k.Type() == ast.MergeKeyType {
				continue
			}
			key, pos := keyName(k), nodePos(kc.file, k)
			if name, old := olds[key]; old {
				if s, ok := k.(*ast.StringNode); ok {
					kc.warn(pos, Deprecated(key, name))
					s.Value, s.Token.Value = name, name
					key, kc.renamed = name, true
				}
			}
			if p, dup := first[key]; dup {
				kc.errs.Add(Errorf(pos, "%s", givenTwice(key, p)))
				continue
			}
			first[key] = pos
			var ft reflect.Type
			if fields == nil {
				ft = t.Elem()
			} else {
				var known bool
				if ft, known = fields[key]; !known {
					kc.errs.Add(Errorf(pos, "unknown field %q%s", key, suggest.DidYouMean(key, names)))
					continue
				}
			}
			kc.check(it.Value(), ft)
		}
	case reflect.Slice, reflect.Array:
		if seq, ok := n.(*ast.SequenceNode); ok {
			for _, item := range seq.Values {
				kc.check(item, t.Elem())
			}
		}
	}
}

func (kc *keyCheck) warn(pos Pos, msg string) {
	if kc.warns != nil {
		kc.warns.Add(Errorf(pos, "%s", msg))
	}
}

// Deprecated is the warning for a spelling old that loads as the
// spelling name does.
func Deprecated(old, name string) string {
	return fmt.Sprintf("%s is deprecated: write %s (the old spelling loads the same)", old, name)
}

// Warn records a warning at pos in the warning list of the DecodeAllWarn
// that decodes, if it has one: for an UnmarshalYAML method that meets an
// old spelling.
func Warn(ctx context.Context, pos Pos, msg string) {
	if l, ok := ctx.Value(warnKey{}).(*ErrorList); ok && l != nil {
		l.Add(Errorf(pos, "%s", msg))
	}
}

// oldNames maps the old names of the fields of the struct type t (tag
// was:"OLD…") to their yaml keys.
func oldNames(t reflect.Type) map[string]string {
	var olds map[string]string
	for f := range t.Fields() {
		name, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opt == "inline" && f.Type.Kind() == reflect.Struct {
			for k, v := range oldNames(f.Type) {
				if olds == nil {
					olds = map[string]string{}
				}
				olds[k] = v
			}
			continue
		}
		for _, old := range strings.Fields(f.Tag.Get("was")) {
			if olds == nil {
				olds = map[string]string{}
			}
			olds[old] = name
		}
	}
	return olds
}

// givenTwice is the message of a key given a second time.
func givenTwice(key string, first Pos) string {
	return fmt.Sprintf("%s given twice (first at line %d)", key, first.Line)
}

// fieldTypes finds the types of the fields of the struct type t by their
// yaml key, as collectFields finds the fields.
func fieldTypes(t reflect.Type, into map[string]reflect.Type) {
	for f := range t.Fields() {
		name, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opt == "inline" && f.Type.Kind() == reflect.Struct:
			fieldTypes(f.Type, into)
		case name != "-" && f.IsExported():
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			into[name] = f.Type
		}
	}
}

// keyName is the text of a mapping key, unquoted.
func keyName(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return k.String()
}

// nodePos is the position of the node n of file.
func nodePos(file string, n ast.Node) Pos {
	p := Pos{File: file}
	if tk := n.GetToken(); tk != nil {
		p.Line, p.Col = tk.Position.Line, tk.Position.Column
	}
	return p
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
		return report(ctx, &Error{Pos: i.Pos, Msg: fmt.Sprintf("integer %s out of range", v.GetToken().Value)})
	}
	return report(ctx, &Error{Pos: i.Pos, Msg: "want an integer, found " + describe(n)})
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

// decoderKey keys the file's shared decoder (a *fileDecoder) in the
// context.
type decoderKey struct{}

// dataKey keys the text of the file being decoded (a *fileText) in the
// context.
type dataKey struct{}

// fileText is the text of a file being decoded, with the offsets of its
// lines, found once: every scalar of the file looks its line up.
type fileText struct {
	data   []byte
	once   sync.Once
	starts []int // the offset of each line
}

func (t *fileText) bytes() []byte {
	if t == nil {
		return nil
	}
	return t.data
}

// lineStart is the offset of the 1-based line, or -1 past the last line.
func (t *fileText) lineStart(line int) int {
	t.once.Do(func() {
		t.starts = append(t.starts, 0)
		for i, b := range t.data {
			if b == '\n' {
				t.starts = append(t.starts, i+1)
			}
		}
	})
	if line < 1 || line > len(t.starts) {
		return -1
	}
	return t.starts[line-1]
}

// String is a YAML scalar that remembers where it was written.
type String struct {
	Value string
	Pos   Pos
	// src is the scalar as written, to place an offset of Value (see
	// PosAt); nil for a String made in Go.
	src *scalarSource
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
		s.src = newScalarSource(ctx, tk)
	case *ast.LiteralNode:
		s.Value = v.Value.Value
		s.src = newScalarSource(ctx, tk)
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		s.Value = tk.Value
	case *ast.NullNode:
		s.Value = ""
	default:
		return report(ctx, &Error{Pos: s.Pos, Msg: "want a string, found " + describe(n)})
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
