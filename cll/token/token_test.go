package token

import (
	"errors"
	"testing"
)

func TestKinds(t *testing.T) {
	for _, tc := range []struct {
		k               Kind
		text            string
		keyword, isType bool
	}{
		{IDENT, "identifier", false, false},
		{LEQ, "<=", false, false},
		{LOGIC, "logic", true, false},
		{TIME, "time", true, false},
		{BOOLEAN, "Boolean", false, true},
		{STRING, "String", false, true},
	} {
		if got := tc.k.String(); got != tc.text {
			t.Errorf("%d.String() = %q, want %q", tc.k, got, tc.text)
		}
		if tc.k.IsKeyword() != tc.keyword || tc.k.IsTypeName() != tc.isType {
			t.Errorf("%v: keyword %v, type name %v", tc.k, tc.k.IsKeyword(), tc.k.IsTypeName())
		}
		if tc.keyword || tc.isType {
			if got := Lookup(tc.text); got != tc.k {
				t.Errorf("Lookup(%q) = %v", tc.text, got)
			}
		}
	}
	if got := Lookup("boolean"); got != IDENT {
		t.Errorf("Lookup(boolean) = %v", got)
	}
	if n := len(reserved); n != 41 {
		t.Errorf("%d reserved words, want the 37 keywords and 4 type names", n)
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Fatal("empty list is an error")
	}
	l.Add(Pos{File: "a.cll", Line: 2, Col: 3}, "bad %s", "thing")
	l.Add(Pos{}, "no position")
	if got := l.Err().Error(); got != "a.cll:2:3: bad thing (and 1 more errors)" {
		t.Errorf("Error() = %q", got)
	}
	var target ErrorList
	if !errors.As(l.Err(), &target) || len(target) != 2 {
		t.Errorf("errors.As failed")
	}
	if got := target[1].Error(); got != "<input>: no position" {
		t.Errorf("unpositioned error = %q", got)
	}
}
