package infer

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/tree"
)

// sizesSeed has a message whose fields are numbered below 16 and one whose
// fields are numbered from 16 on, where protoc's C++ writes a tag of two
// bytes (`2 + …Int32Size(` against `…Int32SizePlusOne(`).
const sizesSeed = `syntax = "proto3";
package p;

message Small {
  int32 alpha = 2;
  int32 beta = 1;
}

message Big {
  int32 gamma = 20;
  int32 delta = 16;
}
`

// A copied field takes the smallest number free on its sibling's side of
// a size boundary: below 16 in Small, from 16 on in Big (where the
// smallest free number, 3, would make protoc's C++ write the copy's size
// otherwise than its sibling's).
func TestFreshNumberKeepsSizeClass(t *testing.T) {
	tr := parseSeed(t, "sizes.proto", sizesSeed)
	lists := Structure([]*syntax.Tree{tr}, numlit.Protobuf)
	out := tree.Tree{"sizes.pb.h": []byte("int32_t alpha;\nint32_t beta;\nint32_t gamma;\nint32_t delta;\n")}
	h := Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Protobuf)
	p := &Pack{Syntax: "proto", Numbers: "protobuf", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	rels := loadPack(t, p)
	in := relation.Input{Name: "sizes.proto", Src: []byte(sizesSeed)}
	num := regexp.MustCompile(`(?m)^\s*int32 zq\w+ = (\d+);$`)
	seen := map[string]bool{}
	for _, rl := range rels {
		spots, err := rl.Spots(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", rl.Name, err)
		}
		for _, sp := range spots {
			fu, err := rl.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatalf("%s at %s: %v", rl.Name, sp.Desc, err)
			}
			// (a field copied in Big, or Big copied after itself: numbers
			// from 16 on; in Small, or Small copied: below)
			big := strings.Contains(sp.Desc, "of Big") || strings.HasSuffix(sp.Desc, "after Big")
			for _, m := range num.FindAllStringSubmatch(string(fu.Src), -1) {
				n, _ := strconv.Atoi(m[1])
				if big != (n >= 16) || n == 16 || n == 20 || n <= 2 {
					t.Errorf("%s at %s: the copy takes %d", rl.Name, sp.Desc, n)
				}
				seen[map[bool]string{false: "Small", true: "Big"}[big]] = true
			}
		}
	}
	if !seen["Small"] || !seen["Big"] {
		t.Errorf("copies of fields made in %v: want both messages", seen)
	}
}

// Where no number is free on the sibling's side (every number below 16
// written), the copy takes the smallest free one.
func TestFreshNumberFallsBackToSmallest(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage p;\n\nmessage Full {\n")
	for i := 1; i <= 15; i++ {
		b.WriteString("  int32 f" + strings.Repeat("x", i) + " = " + strconv.Itoa(i) + ";\n")
	}
	b.WriteString("}\n")
	src := b.String()
	tr := parseSeed(t, "full.proto", src)
	lists := Structure([]*syntax.Tree{tr}, numlit.Protobuf)
	h := Learn([]Sample{{Tree: tr, Output: tree.Tree{"full.pb.h": []byte("int32_t fx;\n")}}}, lists, numlit.Protobuf)
	p := &Pack{Syntax: "proto", Numbers: "protobuf", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	in := relation.Input{Name: "full.proto", Src: []byte(src)}
	num := regexp.MustCompile(`(?m)^\s*int32 zq\w+ = (\d+);$`)
	made := 0
	for _, rl := range loadPack(t, p) {
		spots, _ := rl.Spots(context.Background(), in)
		for _, sp := range spots {
			fu, err := rl.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatalf("%s at %s: %v", rl.Name, sp.Desc, err)
			}
			if m := num.FindStringSubmatch(string(fu.Src)); m != nil {
				made++
				if m[1] != "16" {
					t.Errorf("%s at %s: the copy takes %s, want 16", rl.Name, sp.Desc, m[1])
				}
			}
		}
	}
	if made == 0 {
		t.Error("no copy of a field made")
	}
}

// loadPack loads the pack's relations with the parser of its seeds'
// language (p.Syntax names the language by a seed's extension).
func loadPack(t *testing.T, p *Pack) []*relation.Relation {
	t.Helper()
	l, ok := lang.Of("seed." + p.Syntax)
	if !ok {
		t.Fatalf("no language %s", p.Syntax)
	}
	parser, err := l.Parser(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.parser, p.Syntax = parser, parser.Lang()
	rels, err := p.Load()
	if err != nil {
		names, files := p.Files()
		for _, n := range names {
			t.Logf("%s:\n%s", n, files[n])
		}
		t.Fatal(err)
	}
	return rels
}

// Where every number below 16 is written somewhere in the file but not in
// the copy's own message (an enum's values, type.proto's Field.Kind), the
// copy of a field takes the smallest number below 16 its message does not
// have, not one from 16 on (Field's copied oneof_index, 7, took 19): a
// value of an enum nested in it is no field number, a reserved one is.
func TestFreshNumberFreeInItsList(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage p;\n\nenum Kind {\n")
	for i := 0; i <= 15; i++ {
		b.WriteString("  KIND_" + strconv.Itoa(i) + "_X = " + strconv.Itoa(i) + ";\n")
	}
	b.WriteString("}\n\nmessage Field {\n  int32 number = 3;\n  Kind kind = 1;\n  string name = 4;\n  enum Cardinality {\n    C_0 = 0;\n    C_2 = 2;\n    C_6 = 6;\n  }\n  reserved 5;\n}\n")
	src := b.String()
	tr := parseSeed(t, "field.proto", src)
	lists := Structure([]*syntax.Tree{tr}, numlit.Protobuf)
	h := Learn([]Sample{{Tree: tr, Output: tree.Tree{"field.pb.h": []byte("int32_t number;\n")}}}, lists, numlit.Protobuf)
	p := &Pack{Syntax: "proto", Numbers: "protobuf", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	in := relation.Input{Name: "field.proto", Src: []byte(src)}
	num := regexp.MustCompile(`(?m)^\s*\w+ zq\w+ = (\d+);$`)
	made := 0
	for _, rl := range loadPack(t, p) {
		if !strings.Contains(rl.Name, "field") {
			continue
		}
		spots, _ := rl.Spots(context.Background(), in)
		for _, sp := range spots {
			fu, err := rl.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatalf("%s at %s: %v", rl.Name, sp.Desc, err)
			}
			if m := num.FindStringSubmatch(string(fu.Src)); m != nil {
				made++
				if m[1] != "2" {
					t.Errorf("%s at %s: the copy takes %s, want 2", rl.Name, sp.Desc, m[1])
				}
			}
		}
	}
	if made == 0 {
		t.Error("no copy of a field made")
	}
}

// A field copied into a oneof takes a number that no field of the
// message has, in the oneof or not (onnx's Dimension: `oneof value {
// dim_value = 1; dim_param = 2; }` beside `denotation = 3`).
func TestFreshNumberOfOneof(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto2\";\npackage p;\n\nenum Kind {\n")
	for i := 0; i <= 15; i++ {
		b.WriteString("  KIND_" + strconv.Itoa(i) + "_X = " + strconv.Itoa(i) + ";\n")
	}
	b.WriteString("}\n\nmessage Shape {\n  message Dimension {\n    oneof value {\n      int64 dim_value = 1;\n      string dim_param = 2;\n    }\n    optional string denotation = 3;\n  }\n  repeated Dimension dim = 1;\n}\n")
	src := b.String()
	tr := parseSeed(t, "shape.proto", src)
	lists := Structure([]*syntax.Tree{tr}, numlit.Protobuf)
	h := Learn([]Sample{{Tree: tr, Output: tree.Tree{"shape.pb.h": []byte("int64_t dim_value;\n")}}}, lists, numlit.Protobuf)
	p := &Pack{Syntax: "proto", Numbers: "protobuf", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	in := relation.Input{Name: "shape.proto", Src: []byte(src)}
	num := regexp.MustCompile(`(?m)^\s*\w+ zq\w+ = (\d+);$`)
	made := 0
	for _, rl := range loadPack(t, p) {
		spots, _ := rl.Spots(context.Background(), in)
		for _, sp := range spots {
			if !strings.Contains(sp.Desc, "of value") {
				continue
			}
			fu, err := rl.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatalf("%s at %s: %v", rl.Name, sp.Desc, err)
			}
			if m := num.FindStringSubmatch(string(fu.Src)); m != nil {
				made++
				if m[1] != "4" {
					t.Errorf("%s at %s: the copy takes %s, want 4", rl.Name, sp.Desc, m[1])
				}
			}
		}
	}
	if made == 0 {
		t.Error("no copy of a field made in the oneof")
	}
}
