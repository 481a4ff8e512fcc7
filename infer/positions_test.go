package infer

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/tree"
)

// parseSeed reads src with the parser of file's language.
func parseSeed(t *testing.T, file, src string) *syntax.Tree {
	t.Helper()
	l, ok := lang.Of(file)
	if !ok {
		t.Fatalf("no language for %s", file)
	}
	p, err := l.Parser(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// positional reports whether one of the positional patterns of list type
// typ matches line.
func positional(t *testing.T, lists []*List, typ, line string) bool {
	t.Helper()
	l := listOf(lists, typ)
	if l == nil {
		t.Fatalf("no list %s", typ)
	}
	return slices.ContainsFunc(l.Positional, func(p string) bool { return regexp.MustCompile(p).MatchString(line) })
}

// protoc's C++ names an enum's first and last values on lines alike once
// the names are masked (Kind_MIN, Kind_MAX: both words hold the enum's
// name), and the values between on none: a line of the ends of the list.
// A copy takes the largest number wherever it stands and becomes the
// MAX, so that `constexpr Kind Kind_MAX = KIND_B;` goes: the locality
// check lets it.
func TestLearnEndsOfList(t *testing.T) {
	tr := parseSeed(t, "x.proto", "syntax = \"proto3\";\nenum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; KIND_B = 2; }\n")
	out := tree.Tree{"x.pb.h": []byte(`enum Kind : int {
  KIND_UNSPECIFIED = 0,
  KIND_A = 1,
  KIND_B = 2,
  Kind_INT_MIN_SENTINEL_DO_NOT_USE_ = std::numeric_limits<int32_t>::min(),
  Kind_INT_MAX_SENTINEL_DO_NOT_USE_ = std::numeric_limits<int32_t>::max()
};
bool Kind_IsValid(int value);
constexpr Kind Kind_MIN = KIND_UNSPECIFIED;
constexpr Kind Kind_MAX = KIND_B;
constexpr int Kind_ARRAYSIZE = Kind_MAX + 1;
`)}
	lists := Structure([]*syntax.Tree{tr}, numlit.Decimal)
	Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Decimal)
	if !positional(t, lists, "ebody", "constexpr Kind Kind_MAX = KIND_B;") {
		t.Errorf("the MAX line is no line of the ends of an enum: %q", listOf(lists, "ebody").Positional)
	}
	if positional(t, lists, "ebody", "  KIND_A = 1,") {
		t.Errorf("a value's own line is a positional one: %q", listOf(lists, "ebody").Positional)
	}
}

// A comment that writes a declared name (any case) is no use of it:
// flatc's default argument names an enum's first value, which the input
// names nowhere but in a doc comment ("signing or encryption"), and a
// copy inserted first takes it over (`KeyType KEY_TYPE =
// KeyType_Signing) {` goes).
func TestLearnCommentIsNoUse(t *testing.T) {
	tr := parseSeed(t, "k.fbs", `enum KeyType : byte {
  Signing,
  Encryption
}

table CryptoKey {
  PUBLIC_KEY: string;
  /// Type of the cryptographic key (signing or encryption)
  KEY_TYPE: KeyType;
}
`)
	out := tree.Tree{"k_generated.h": []byte(`enum KeyType : int8_t {
  KeyType_Signing = 0,
  KeyType_Encryption = 1,
  KeyType_MIN = KeyType_Signing,
  KeyType_MAX = KeyType_Encryption
};

inline const KeyType (&EnumValuesKeyType())[2] {
  static const KeyType values[] = {
    KeyType_Signing,
    KeyType_Encryption
  };
  return values;
}

inline const char * const *EnumNamesKeyType() {
  static const char * const names[3] = {
    "Signing",
    "Encryption",
    nullptr
  };
  return names;
}

inline flatbuffers::Offset<CryptoKey> CreateCryptoKey(
    flatbuffers::FlatBufferBuilder &_fbb,
    flatbuffers::Offset<flatbuffers::String> PUBLIC_KEY = 0,
    KeyType KEY_TYPE = KeyType_Signing) {
  CryptoKeyBuilder builder_(_fbb);
  builder_.add_PUBLIC_KEY(PUBLIC_KEY);
  builder_.add_KEY_TYPE(KEY_TYPE);
  return builder_.Finish();
}
`)}
	lists := Structure([]*syntax.Tree{tr}, numlit.Decimal)
	Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Decimal)
	if !positional(t, lists, "enum", "    KeyType KEY_TYPE = KeyType_Signing) {") {
		t.Errorf("the default that names the first value is no line of the first: %q", listOf(lists, "enum").Positional)
	}
}

// protoc's C++ clears the one number field of a message with
// `_impl_.value_ = 0;` in Clear() (the source file) and several with a
// memset over their range, while the header's clear_value() has the line
// for every number field: in the source file it is the line of a field
// the list chooses (rare among its declarations), in the header every
// number field's. Counted apart per kind of output file, the source's
// line is a rare one, which a copy of a field takes away.
func TestLearnRareLinePerFileKind(t *testing.T) {
	var src, h, cc strings.Builder
	src.WriteString("syntax = \"proto3\";\n")
	for m := range 10 {
		// five messages of one number field among strings, five of three
		strs, nums := 5, 1
		if m >= 5 {
			strs, nums = 3, 3
		}
		fmt.Fprintf(&src, "message M%d {\n", m)
		fmt.Fprintf(&cc, "void M%d::Clear() {\n", m)
		for i := range strs {
			fmt.Fprintf(&src, "  string s%d_%d = %d;\n", m, i, i+1)
			fmt.Fprintf(&h, "inline void M%d::clear_s%d_%d() {\n  _impl_.s%d_%d_.ClearToEmpty();\n}\n", m, m, i, m, i)
			fmt.Fprintf(&cc, "  _impl_.s%d_%d_.ClearToEmpty();\n", m, i)
		}
		for i := range nums {
			fmt.Fprintf(&src, "  int32 n%d_%d = %d;\n", m, i, strs+i+1)
			fmt.Fprintf(&h, "inline void M%d::clear_n%d_%d() {\n  _impl_.n%d_%d_ = 0;\n}\n", m, m, i, m, i)
		}
		if nums == 1 {
			fmt.Fprintf(&cc, "  _impl_.n%d_0_ = 0;\n", m)
		} else {
			fmt.Fprintf(&cc, "  ::memset(&_impl_.n%d_0_, 0, static_cast<size_t>(\n      reinterpret_cast<char*>(&_impl_.n%d_2_) -\n      reinterpret_cast<char*>(&_impl_.n%d_0_)) + sizeof(_impl_.n%d_2_));\n", m, m, m, m)
		}
		src.WriteString("}\n")
		cc.WriteString("}\n")
	}
	tr := parseSeed(t, "x.proto", src.String())
	out := tree.Tree{"x.pb.h": []byte(h.String()), "x.pb.cc": []byte(cc.String())}
	lists := Structure([]*syntax.Tree{tr}, numlit.Decimal)
	Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Decimal)
	if !positional(t, lists, "mbody", "  _impl_.value_ = 0;") {
		t.Errorf("the one number field's line of Clear() is no rare line: %q", listOf(lists, "mbody").Positional)
	}
	// (the same line of the other one-field messages of wrappers.proto:
	// the value is written as the field's type writes a zero)
	for _, line := range []string{"  _impl_.value_ = uint64_t{0u};", "  _impl_.value_ = int64_t{0};", "  _impl_.value_ = 0u;", "  _impl_.value_ = false;", "  _impl_.value_ = ::int64_t{0};"} {
		if !positional(t, lists, "mbody", line) {
			t.Errorf("%q: not the rare line of Clear(): %q", line, listOf(lists, "mbody").Positional)
		}
	}
	if positional(t, lists, "mbody", "  _impl_.value_ = from._impl_.value_;") {
		t.Errorf("a copy of the field from another message is the rare line: %q", listOf(lists, "mbody").Positional)
	}
	if positional(t, lists, "mbody", "  _impl_.value_.ClearToEmpty();") {
		t.Errorf("the line of every string field is a rare one: %q", listOf(lists, "mbody").Positional)
	}
}

// flatc's TypeScript writes a `static create…(` helper for some tables
// and not for others (those whose struct fields come first have one, as
// those without struct fields: flatc 2.0.8), and a field copied before
// the first struct field takes it away. The helper's line names the
// table, as a function named after it: a line some tables have and
// others lack, which a declaration more may add or take away. The lines
// every table has (start…, end…) are no such line.
func TestLearnOwnerLines(t *testing.T) {
	const seed = "struct Vec { x: int; }\ntable Alpha { pos: Vec; count: int; }\ntable Beta { count: int; pos: Vec; }\n" +
		"table Gamma { count: int; total: int; }\ntable Delta { count: int; pos: Vec; other: Vec; }\n"
	tr := parseSeed(t, "shapes.fbs", seed)
	// (the lines of flatc --ts of the seed, its helper for Alpha and Gamma)
	table := func(name string, fields []string, create bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, "export class %s {\n", name)
		fmt.Fprintf(&b, "static getRootAs%s(bb:flatbuffers.ByteBuffer, obj?:%s):%s {\n}\n", name, name, name)
		fmt.Fprintf(&b, "static start%s(builder:flatbuffers.Builder) {\n  builder.startObject(%d);\n}\n", name, len(fields))
		var params []string
		for _, f := range fields {
			fmt.Fprintf(&b, "static add%s(builder:flatbuffers.Builder, %s:number) {\n}\n", strings.ToUpper(f[:1])+f[1:], f)
			params = append(params, f+":number")
		}
		fmt.Fprintf(&b, "static end%s(builder:flatbuffers.Builder):flatbuffers.Offset {\n}\n", name)
		if create {
			fmt.Fprintf(&b, "static create%s(builder:flatbuffers.Builder, %s):flatbuffers.Offset {\n  %s.start%s(builder);\n}\n", name, strings.Join(params, ", "), name, name)
		}
		b.WriteString("}\n")
		return b.String()
	}
	out := tree.Tree{
		"alpha.ts": []byte(table("Alpha", []string{"pos", "count"}, true)),
		"beta.ts":  []byte(table("Beta", []string{"count", "pos"}, false)),
		"gamma.ts": []byte(table("Gamma", []string{"count", "total"}, true)),
		"delta.ts": []byte(table("Delta", []string{"count", "pos", "other"}, false)),
	}
	lists := Structure([]*syntax.Tree{tr}, numlit.Decimal)
	Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Decimal)
	var types []string
	for _, l := range lists {
		types = append(types, l.Type)
	}
	listType := "table"
	if !slices.Contains(types, listType) {
		t.Fatalf("no list %s: %q", listType, types)
	}
	for line, want := range map[string]bool{
		"static createSceneEntityDeletion(builder:flatbuffers.Builder, timestampOffset:flatbuffers.Offset, type:SceneEntityDeletionType, idOffset:flatbuffers.Offset):flatbuffers.Offset {": true,
		"  SceneEntityDeletion.startSceneEntityDeletion(builder);":                        true,
		"static endSceneEntityDeletion(builder:flatbuffers.Builder):flatbuffers.Offset {": false,
		"static startSceneEntityDeletion(builder:flatbuffers.Builder) {":                  false,
	} {
		if got := positional(t, lists, listType, line); got != want {
			t.Errorf("%s: a line some tables lack = %v, want %v", line, got, want)
		}
	}
}
