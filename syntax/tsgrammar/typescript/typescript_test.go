package typescript_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// TestOffered: the parser is offered by passing it, under the name
// relation files give it, beside mcpt's own grammars.
func TestOffered(t *testing.T) {
	linked, err := syntax.NewParsers(typescript.Parser)
	if err != nil {
		t.Fatal(err)
	}
	set, err := lang.With(linked)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := set.Lookup(typescript.Name); !ok || p != typescript.Parser {
		t.Errorf("the set %v has no %s parser", set.Names(), typescript.Name)
	}
	l, _ := lang.Of("a.ts")
	if p, err := l.Parser(set); err != nil || p != typescript.Parser {
		t.Errorf("the parser of a.ts: %v, %v", p, err)
	}
}

func TestEnumLayouts(t *testing.T) {
	spec := syntax.ListSpec{Lists: []string{"enum_body"}}
	want := "enum_body of Color, before Red|enum_body of Color, between Red and Green|enum_body of Color, between Green and Blue|enum_body of Color, after Blue"
	for _, src := range []string{
		"export enum Color {\n  Red,\n  Green = 2,\n  Blue,\n}\n",
		"export enum Color { Red, Green = 2, /* b */ Blue }",
		"export enum Color\r\n{\r\n\t/** red */\r\n\tRed, // r\r\n\tGreen = 2,\r\n\tBlue\r\n}\r\n",
	} {
		tr, err := typescript.Parser.Parse("c.ts", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range syntax.Lists(tr, spec) {
			for _, s := range l.Spots() {
				got = append(got, s.Desc)
			}
		}
		if g := strings.Join(got, "|"); g != want {
			t.Errorf("spots of %q:\n%s\nwant\n%s", src, g, want)
		}
	}
}

func TestClassInsert(t *testing.T) {
	src := "class C {\n  x = 1;\n  m() {}\n}\n"
	tr, err := typescript.Parser.Parse("c.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	l := syntax.Lists(tr, syntax.ListSpec{Lists: []string{"class_body"}})[0]
	ss := l.Spots()
	if got, want := string(ss[1].Insert("n?: string;").Apply(tr.Src)), "class C {\n  x = 1;\n  n?: string;\n  m() {}\n}\n"; got != want {
		t.Errorf("between x and m:\n%q\nwant\n%q", got, want)
	}
	if got, want := string(ss[2].Insert("n?: string").Apply(tr.Src)), "class C {\n  x = 1;\n  m() {}\n  n?: string;\n}\n"; got != want {
		t.Errorf("after m:\n%q\nwant\n%q", got, want)
	}
}

// TestSyntaxErrorPositioned: a seed that does not parse is an error at
// the file:line:col of the first place tree-sitter could not read, saying
// what it expected and found there as the grammars do, or the text it
// could fit nowhere.
func TestSyntaxErrorPositioned(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"export function f(x: number {\n  return x;\n}\n", `bad.ts:1:29: typescript: expected ")", found "{"`},
		{"export enum E { A, B\nexport const c = 1;\n", `bad.ts:2:1: typescript: expected "}", found "export"`},
		{"export class C { m() { return 1 }", `bad.ts:1:34: typescript: expected "}", found end of file`},
		{"export interface A {\n  a: number;\n}\nexport interface {\n", `bad.ts:4:1: typescript: syntax error: cannot read "export interface {"`},
		{"let x = ;\n", `bad.ts:1:7: typescript: syntax error: cannot read "="`},
		{"const s = 1 +* 2;\n", `bad.ts:1:13: typescript: syntax error: cannot read "+"`},
	} {
		_, err := typescript.Parser.Parse("bad.ts", []byte(c.src))
		var se *syntax.Error
		if !errors.As(err, &se) || se.Name != "bad.ts" {
			t.Errorf("%q: error = %v, want a positioned syntax.Error", c.src, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.src, err, c.want)
		}
	}
}

// lateCtx is a context that is done, but whose Err says so only after
// its first call: the parse starts, and then finds it done.
type lateCtx struct {
	context.Context
	calls int
}

func (c *lateCtx) Err() error {
	c.calls++
	if c.calls == 1 {
		return nil
	}
	return context.Canceled
}

// TestParseContext: a parse stops when its context is done, whether before
// it starts or while it reads (a seed of megabytes takes seconds).
func TestParseContext(t *testing.T) {
	cp, ok := typescript.Parser.(syntax.ContextParser)
	if !ok {
		t.Fatal("the TypeScript parser takes no context")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cp.ParseContext(ctx, "a.ts", []byte("export enum A { B }\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("a parse under a cancelled context: %v", err)
	}
	var b strings.Builder
	for i := 0; b.Len() < 8<<20; i++ {
		fmt.Fprintf(&b, "export interface I%d {\n  a: number;\n  b?: string;\n}\n", i)
	}
	if _, err := cp.ParseContext(&lateCtx{Context: ctx}, "big.ts", []byte(b.String())); !errors.Is(err, context.Canceled) {
		t.Errorf("a parse whose context is done while it reads: %v", err)
	}
}
