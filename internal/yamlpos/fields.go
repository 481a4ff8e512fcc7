package yamlpos

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/suggest"
)

// Keys are the positions of a decoded mapping: of the mapping itself, of
// each key's value, and of the items of the values that are sequences.
type Keys struct {
	Pos    Pos
	order  []string
	vals   map[string]Pos
	keyPos map[string]Pos
	items  map[string][]Pos
}

// Given lists the keys the mapping gives, in the order of the file.
func (k Keys) Given() []string { return k.order }

// Has tells whether the mapping gives key.
func (k Keys) Has(key string) bool { _, ok := k.vals[key]; return ok }

// At is the position of key's value; the mapping's when it has none.
func (k Keys) At(key string) Pos {
	if p, ok := k.vals[key]; ok {
		return p
	}
	return k.Pos
}

// Item is the position of item i of key's value, a sequence; the value's
// when it has no such item.
func (k Keys) Item(key string, i int) Pos {
	if items := k.items[key]; i >= 0 && i < len(items) {
		return items[i]
	}
	return k.At(key)
}

// DecodeFields decodes the mapping n, met while Decode decodes a file,
// into the struct *v key by key: each key names the field whose yaml tag
// it is (the fields of embedded structs tagged ",inline" included) or an
// old name of (was:"OLD…", with a warning, as DecodeAllWarn gives), a key
// no field has is an error, and so is a value the field's type cannot
// take, at the value, worded in terms of YAML; within a DecodeAll, each is
// reported and the mapping decoded on. A field's type may be any
// the YAML library decodes, a time.Duration from text such as 30s. It
// returns where each key and item was written.
func DecodeFields(ctx context.Context, n ast.Node, v any) (Keys, error) {
	keys := Keys{Pos: PosOf(ctx, n), vals: map[string]Pos{}, keyPos: map[string]Pos{}, items: map[string][]Pos{}}
	if _, ok := n.(*ast.NullNode); ok {
		return keys, nil
	}
	m, ok := n.(ast.MapNode)
	if !ok {
		return keys, &Error{Pos: keys.Pos, Msg: "want a mapping, found " + describe(n)}
	}
	fields := map[string]reflect.Value{}
	collectFields(reflect.ValueOf(v).Elem(), fields)
	olds := oldNames(reflect.TypeOf(v).Elem())
	var names []string
	for name := range fields {
		names = append(names, name)
	}
	for it := m.MapRange(); it.Next(); {
		key := it.Key().String()
		kpos, vpos := PosOf(ctx, it.Key()), PosOf(ctx, it.Value())
		if name, old := olds[key]; old {
			Warn(ctx, kpos, Deprecated(key, name))
			key = name
		}
		if keys.Has(key) {
			if err := report(ctx, &Error{Pos: kpos, Msg: givenTwice(key, keys.keyPos[key])}); err != nil {
				return keys, err
			}
			continue
		}
		f, ok := fields[key]
		if !ok {
			if err := report(ctx, &Error{Pos: kpos, Msg: fmt.Sprintf("unknown field %q%s", key, suggest.DidYouMean(key, names))}); err != nil {
				return keys, err
			}
			continue
		}
		keys.keyPos[key] = kpos
		keys.order = append(keys.order, key)
		keys.vals[key] = vpos
		if seq, ok := it.Value().(*ast.SequenceNode); ok {
			for _, item := range seq.Values {
				keys.items[key] = append(keys.items[key], PosOf(ctx, item))
			}
		}
		if err := decodeValue(it.Value(), f); err != nil {
			if err := report(ctx, &Error{Pos: vpos, Msg: key + ": " + err.Error()}); err != nil {
				return keys, err
			}
		}
	}
	return keys, nil
}

// collectFields finds the fields of the struct s by their yaml key.
func collectFields(s reflect.Value, into map[string]reflect.Value) {
	for i := range s.NumField() {
		f := s.Type().Field(i)
		name, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opt == "inline" && f.Type.Kind() == reflect.Struct:
			collectFields(s.Field(i), into)
		case name != "" && name != "-" && f.IsExported():
			into[name] = s.Field(i)
		}
	}
}

// decodeValue decodes the node n into the field f.
func decodeValue(n ast.Node, f reflect.Value) error {
	if f.Type() == reflect.TypeFor[time.Duration]() {
		if s, ok := n.(*ast.StringNode); ok {
			if d, err := time.ParseDuration(s.Value); err == nil {
				f.SetInt(int64(d))
				return nil
			}
		}
		return fmt.Errorf("want a duration such as 30s, found %s", describe(n))
	}
	p := reflect.New(f.Type())
	if err := yaml.NodeToValue(n, p.Interface(), yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		msg := err.Error()
		if ye, ok := err.(yamlError); ok {
			msg = ye.GetMessage()
		}
		msg, _, _ = strings.Cut(msg, "\n")
		return fmt.Errorf("%s", plainTypeError(msg))
	}
	f.Set(p.Elem())
	return nil
}
