package typescript_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

func TestRegistered(t *testing.T) {
	if p, ok := syntax.Lookup("typescript"); !ok || p != typescript.Parser {
		t.Fatal("importing the package does not register the typescript parser")
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

func TestSyntaxErrorPositioned(t *testing.T) {
	_, err := typescript.Parser.Parse("bad.ts", []byte("enum A {\n  X,\n  = 3\n}\n"))
	var se *syntax.Error
	if !errors.As(err, &se) || se.Name != "bad.ts" || se.Line < 1 {
		t.Fatalf("error = %v, want a positioned syntax.Error", err)
	}
	if !strings.HasPrefix(err.Error(), "bad.ts:") {
		t.Errorf("error %q does not start with the file name", err)
	}
}
