package numlit

import (
	"math"
	"slices"
	"testing"
)

// TestParse reads every form each language allows, and refuses what the
// language does not write.
func TestParse(t *testing.T) {
	const bad = math.MinInt64 + 1 // stands for "an error"
	cases := []struct {
		in                        string
		c, protobuf, decimal, ecm int64
	}{
		{"0", 0, 0, 0, 0},
		{"42", 42, 42, 42, 42},
		{" 42\n", 42, 42, 42, 42},
		{"-7", -7, -7, -7, -7},
		{"- 7", -7, -7, -7, -7},
		{"+7", 7, 7, 7, 7},
		{"0x1F", 31, 31, 31, 31},
		{"0X1f", 31, 31, 31, 31},
		{"-0x10", -16, -16, -16, -16},
		{"0x0000000000000008", 8, 8, 8, 8}, // ONNX's IR versions
		{"0000000000000008", bad, bad, 8, 8},
		{"010", 8, 8, 10, 8},
		{"0755", 493, 493, 755, 493},
		{"08", bad, bad, 8, 8},
		{"019", bad, bad, 19, 19},
		{"0o17", bad, bad, bad, 15},
		{"0O17", bad, bad, bad, 15},
		{"0b101", bad, bad, bad, 5},
		{"0B101", bad, bad, bad, 5},
		{"1_000", bad, bad, bad, 1000},
		{"0xFF_FF", bad, bad, bad, 65535},
		{"1__0", bad, bad, bad, bad},
		{"_1", bad, bad, bad, bad},
		{"1_", bad, bad, bad, bad},
		{"10n", bad, bad, bad, 10},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{"-9223372036854775808", math.MinInt64, math.MinInt64, math.MinInt64, math.MinInt64},
		{"9223372036854775808", bad, bad, bad, bad},
		{"0xFFFFFFFFFFFFFFFFF", bad, bad, bad, bad},
		{"1.5", bad, bad, bad, bad},
		{"1e3", bad, bad, bad, bad},
		{"max", bad, bad, bad, bad},
		{"0x", bad, bad, bad, bad},
		{"", bad, bad, bad, bad},
		{"--1", bad, bad, bad, bad},
		{"x1", bad, bad, bad, bad},
		{"12abc", bad, bad, bad, bad},
	}
	for _, c := range cases {
		for _, fw := range []struct {
			f    Form
			want int64
		}{{C, c.c}, {Protobuf, c.protobuf}, {Decimal, c.decimal}, {ECMAScript, c.ecm}} {
			got, err := fw.f.Parse(c.in)
			switch {
			case fw.want == bad && err == nil:
				t.Errorf("%s: Parse(%q) = %d, want an error", fw.f, c.in, got)
			case fw.want != bad && err != nil:
				t.Errorf("%s: Parse(%q): %v, want %d", fw.f, c.in, err, fw.want)
			case fw.want != bad && got != fw.want:
				t.Errorf("%s: Parse(%q) = %d, want %d", fw.f, c.in, got, fw.want)
			}
		}
	}
}

// TestAll finds the literals of texts as relations meet them: digits in
// names, strings and comments are no literals, a minus is a sign only
// where no operand stands before it, max ends a protobuf range.
func TestAll(t *testing.T) {
	cases := []struct {
		form Form
		text string
		want []int64
		max  []bool
	}{
		{Protobuf, "IR_VERSION_2021_7_30 = 0x0000000000000008; IR_VERSION = 0x0000000000000009;", []int64{8, 9}, nil},
		{Protobuf, "int32 field2 = 3 [default = -4]; // was 5\nstring s = 6 [json_name = \"x7\"];", []int64{3, -4, 6}, nil},
		{Protobuf, "reserved 2, 15, 9 to 11, 40 to max;", []int64{2, 15, 9, 11, 40, 0}, []bool{false, false, false, false, false, true}},
		{Protobuf, "reserved -9 to -5; A = -1; B = 010;", []int64{-9, -5, -1, 8}, nil},
		{Protobuf, "int32 max = 1; /* 2 */ reserved \"max\";", []int64{1}, nil},
		{Protobuf, "float f = 7 [default = 1.5]; double d = 8 [default = 1e-3];", []int64{7, 8}, nil},
		{Decimal, "1: i32 a = 010, 2: i64 b = -0x10, 3: i8 c = +5", []int64{1, 10, 2, -16, 3, 5}, nil},
		{ECMAScript, "x = a-1; y = (b) - 2; z = [-3]; return -4", []int64{1, 2, -3, -4}, nil},
		{Decimal, "x = a-1, y = [-3]", []int64{-1, -3}, nil},
		{ECMAScript, "A = 0b11, B = 0o7, C = 1_000, D = -0x1n, E = 'a1', F = `2`, G = x.5", []int64{3, 7, 1000, -1}, nil},
		{C, "MAX = 99999999999999999999, MIN = 1", []int64{1}, nil},
		{C, "", nil, nil},
	}
	for _, c := range cases {
		lits := c.form.All(c.text)
		var got []int64
		var maxes []bool
		for _, l := range lits {
			got = append(got, l.Value)
			maxes = append(maxes, l.Max)
			if l.Start < 0 || l.End > len(c.text) || l.Start >= l.End {
				t.Errorf("%s: All(%q): a literal at [%d, %d)", c.form, c.text, l.Start, l.End)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: All(%q) = %v, want %v", c.form, c.text, got, c.want)
		}
		if c.max != nil && !slices.Equal(maxes, c.max) {
			t.Errorf("%s: All(%q): max %v, want %v", c.form, c.text, maxes, c.max)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, n := range Names() {
		f, ok := Lookup(n)
		if !ok || f.String() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, f, ok)
		}
	}
	if _, ok := Lookup("octal"); ok {
		t.Error("Lookup(octal): a form that does not exist")
	}
	if (Form{}).String() != "c" {
		t.Errorf("the zero form is %s, want c", Form{})
	}
}
