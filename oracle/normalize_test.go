package oracle

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// TestNormalizerJSON: the rules read and write the JSON form recipes have
// always had ({"files", "match", "replace"}); a recipe of an earlier mcpt
// reads back into rules that normalise as the configuration's did, and a
// pattern that does not compile is an error of the reading.
func TestNormalizerJSON(t *testing.T) {
	stamp := "${1}N"
	n := Normalizer{
		{Match: regexp.MustCompile(`^// generated at .*$`)},
		{Files: []string{"cpp/*"}, Match: regexp.MustCompile(`\b(tmp)[0-9]+\b`), Replace: &stamp},
	}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	// What bundle.Rule, the recipe's own type before this one, wrote.
	old := `[{"match":"^// generated at .*$"},{"files":["cpp/*"],"match":"\\b(tmp)[0-9]+\\b","replace":"${1}N"}]`
	if string(b) != old {
		t.Errorf("JSON\n%s\nwant\n%s", b, old)
	}
	var back Normalizer
	if err := json.Unmarshal([]byte(old), &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check(); err != nil {
		t.Fatal(err)
	}
	in := tree.Tree{"cpp/a.cpp": []byte("// generated at 12:00\nint tmp12;\n"), "py/a.py": []byte("tmp3\n")}
	for name, want := range map[string]string{"cpp/a.cpp": "int tmpN;\n", "py/a.py": "tmp3\n"} {
		if got := string(back.Apply(in)[name]); got != want {
			t.Errorf("%s normalised by the rules read back: %q, want %q", name, got, want)
		}
	}

	var bad Normalizer
	if err := json.Unmarshal([]byte(`[{"match":"(unclosed"}]`), &bad); err == nil || !strings.Contains(err.Error(), "normalisation rule \"(unclosed\": error parsing regexp: missing closing )") {
		t.Errorf("a pattern that does not compile: %v", err)
	}
	for text, want := range map[string]string{
		`[{"files":["*.c"]}]`:                          "normalisation rule 1 has no match",
		`[{"match":"x"},{"match":"y","files":["[z"]}]`: `normalisation rule 2 (y): bad file pattern "[z"`,
	} {
		var n Normalizer
		if err := json.Unmarshal([]byte(text), &n); err != nil {
			t.Fatal(err)
		}
		if err := n.Check(); err == nil || err.Error() != want {
			t.Errorf("%s: Check says %v, want %q", text, err, want)
		}
	}
}

// TestNormalizerMemo: what a rule made of a line is remembered by the
// rule's pattern and replacement, so that two rules of one compiled
// pattern, one that drops the line and one that rewrites it, each give
// their own result, on the first pass and when it comes from the memo; a
// line longer than the memo takes is normalised all the same.
func TestNormalizerMemo(t *testing.T) {
	re := regexp.MustCompile(`\b(tmp)[0-9]+\b`)
	n, x := "${1}N", "X"
	long := "int tmp7 = " + strings.Repeat("1 + ", maxMemoLine) + "1;"
	in := tree.Tree{"a.cpp": []byte("int tmp12;\nint other3;\n" + long + "\n")}
	cases := []struct {
		rules Normalizer
		want  string
	}{
		{Normalizer{{Match: re}}, "int other3;\n"},
		{Normalizer{{Match: re, Replace: &n}}, "int tmpN;\nint other3;\n" + strings.Replace(long, "tmp7", "tmpN", 1) + "\n"},
		{Normalizer{{Match: re, Replace: &x}}, "int X;\nint other3;\n" + strings.Replace(long, "tmp7", "X", 1) + "\n"},
	}
	for pass := range 2 {
		for i, c := range cases {
			if got := string(c.rules.Apply(in)["a.cpp"]); got != c.want {
				t.Errorf("pass %d, rules %d: got %.60q, want %.60q", pass+1, i+1, got, c.want)
			}
		}
	}
}

// TestNormalizerMemoBounded: however many distinct lines the outputs
// have, the memo holds at most maxMemoBytes, and still gives each line
// what the rule makes of it.
func TestNormalizerMemoBounded(t *testing.T) {
	defer func(n int) { maxMemoBytes = n }(maxMemoBytes)
	maxMemoBytes = 1 << 20 // 4,000 lines take 3 MiB
	rep := "${1}N"
	n := Normalizer{{Match: regexp.MustCompile(`\b(tmp)[0-9]+\b`), Replace: &rep}}
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "%0300d tmp%d\n", i, i)
	}
	in := tree.Tree{"a.cpp": []byte(b.String())}
	// 4,000 lines of about 300 bytes a pass, each line new in every pass
	// (its end changes): each pass fills the memo of 1 MiB three times.
	for pass := range 3 {
		in["a.cpp"] = []byte(strings.ReplaceAll(b.String(), "\n", fmt.Sprintf(" p%d\n", pass)))
		out := string(n.Apply(in)["a.cpp"])
		if strings.Contains(out, "tmp1") || strings.Count(out, "tmpN") != 4000 {
			t.Fatalf("pass %d: the lines are not normalised: %.80q", pass, out)
		}
		memo.Lock()
		size, entries := memo.bytes, len(memo.m)
		memo.Unlock()
		if size > maxMemoBytes || entries == 0 || entries >= 4000 {
			t.Fatalf("pass %d: the memo holds %d bytes in %d entries, for a bound of %d", pass, size, entries, maxMemoBytes)
		}
	}
}

// BenchmarkNormalize: the rule of the Thrift pack on a generated C++
// file of 700 lines, the follow-up's output normalised after the base's
// (go test ./oracle -run '^$' -bench Normalize).
func BenchmarkNormalize(b *testing.B) {
	rep := "${1}N"
	n := Normalizer{{Files: []string{"cpp/*"}, Match: regexp.MustCompile(`\b(other|tmp|ecast|_size|_etype|_ktype|_vtype|_i|_iter|_key|_val|_elem)[0-9]+\b`), Replace: &rep}}
	var src strings.Builder
	for i := range 100 {
		fmt.Fprintf(&src, "uint32_t S%d::write(::apache::thrift::protocol::TProtocol* oprot) const {\n", i)
		fmt.Fprintf(&src, "  xfer += oprot->writeFieldBegin(\"f%d\", ::apache::thrift::protocol::T_LIST, %d);\n", i, i)
		fmt.Fprintf(&src, "    std::vector<int32_t> ::const_iterator _iter%d;\n", i)
		fmt.Fprintf(&src, "    for (_iter%d = this->f.begin(); _iter%d != this->f.end(); ++_iter%d)\n", i, i, i)
		src.WriteString("  xfer += oprot->writeFieldEnd();\n  return xfer;\n}\n")
	}
	in := tree.Tree{"cpp/s_types.cpp": []byte(src.String())}
	b.ResetTimer()
	for range b.N {
		n.Apply(in)
	}
}
