package lang

import (
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/syntax"
)

type namedParser struct{ name string }

func (p *namedParser) Lang() string                               { return p.name }
func (p *namedParser) Parse(string, []byte) (*syntax.Tree, error) { return nil, nil }

// TestWith: a load's set is mcpt's own grammars and the linked parsers; a
// linked parser named as one of mcpt's own is an error.
func TestWith(t *testing.T) {
	set, err := With(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), " "); got != "cll flatbuffers protobuf thrift" {
		t.Errorf("With(nil) holds %s", got)
	}
	linked, _ := syntax.NewParsers(&namedParser{"typescript"})
	if set, err = With(linked); err != nil || len(set.Names()) != 5 {
		t.Errorf("With(typescript) = %v, %v", set.Names(), err)
	}
	clash, _ := syntax.NewParsers(&namedParser{"protobuf"})
	if _, err := With(clash); err == nil || !strings.Contains(err.Error(), "parser protobuf: mcpt has its own") {
		t.Errorf("a linked protobuf: %v", err)
	}
}

// TestParserOfLanguage: a language's parser is mcpt's own, or a linked
// one, else an error that says how to get it; a name of no language mcpt
// knows lists the parsers there are.
func TestParserOfLanguage(t *testing.T) {
	l, ok := Of("a.PROTO")
	if !ok || l.Name != "protobuf" {
		t.Fatalf("Of(a.PROTO) = %v, %v", l, ok)
	}
	if p, err := l.Parser(nil); err != nil || p != Protobuf {
		t.Errorf("protobuf: %v, %v", p, err)
	}
	// The grammar compiles and reads a file of its language.
	if tr, err := Thrift.Parse("a.thrift", []byte("struct S {\n  1: i32 x\n}\n")); err != nil || tr.Root == nil {
		t.Errorf("thrift: %v", err)
	}
	ts, _ := Of("a.mts")
	if _, err := ts.Parser(nil); err == nil || !strings.Contains(err.Error(), `no parser "typescript": this mcpt was built without the TypeScript grammar: rebuild it with -tags typescript`) {
		t.Errorf("typescript, not linked: %v", err)
	}
	own := &namedParser{"typescript"}
	linked, _ := syntax.NewParsers(own)
	if p, err := ts.Parser(linked); err != nil || p != own {
		t.Errorf("typescript, linked: %v, %v", p, err)
	}
	if _, ok := Of("a.txt"); ok {
		t.Error("a .txt seed has a language")
	}
	if err := Missing("cobol", linked); err == nil || err.Error() != `no parser "cobol" in this mcpt (it has: cll, flatbuffers, protobuf, thrift, typescript; a grammar file is named by its path, ending in .grammar)` {
		t.Errorf("cobol: %v", err)
	}
}
