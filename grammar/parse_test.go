package grammar_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
)

// TestParseErrors checks that every mistake in a grammar is reported at its
// exact position.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undefined rule", `a = "x" b;`,
			`g:1:9: undefined rule b`},
		{"groups nested too deep", "a = " + strings.Repeat("(", 200_000) + `"x"` + strings.Repeat(")", 200_000) + ";",
			`g:1:205: groups nested deeper than 200 levels`},
		{"indents nested too deep", "a = " + strings.Repeat("@indent(", 300) + `"x"` + strings.Repeat(")", 300) + ";",
			`g:1:1605: groups nested deeper than 200 levels`},
		{"duplicate rule", "a = \"x\";\na = \"y\";",
			`g:2:1: duplicate rule a (first defined at g:1:1)`},
		{"duplicate variant", "a = b<X>;\nb<X> = \"1\";\nb<X> = \"2\";",
			`g:3:1: duplicate rule b with the same parameters (first defined at g:2:1)`},
		{"only weight 0", `a = 0: "x" | 0: "y";`,
			`g:1:1: a choice needs an alternative of weight above 0 (weight 0 is only read when parsing)`},
		{"huge weight", `a = "x" | 2000000: "y";`,
			`g:1:11: bad weight 2000000: must be 0..1000000`},
		{"weight without colon", `a = 3 "x";`,
			`g:1:7: expected ":", found literal "x"`},
		{"unterminated literal", "a = \"x;\nb = \"y\";",
			`g:1:5: unterminated literal`},
		{"unterminated literal at end of file", `a = "x`,
			`g:1:5: unterminated literal`},
		{"unknown escape", `a = "x\q";`,
			`g:1:7: unknown escape \q`},
		{"unterminated class", `a = [a-z;`,
			`g:1:5: unterminated character class`},
		{"empty class", `a = [];`,
			`g:1:5: empty character class`},
		{"bad range", `a = [z-a];`,
			`g:1:6: bad range z-a in character class`},
		{"bad bounds", `a = "x"{3,1};`,
			`g:1:8: bad bounds {3,1}: minimum above maximum`},
		{"bound too large", `a = "x"{0,20000};`,
			`g:1:11: bad bounds: 20000 is above 10000`},
		{"missing bound", `a = "x"{,2};`,
			`g:1:9: expected a repetition bound, found ","`},
		{"unknown kind", "%kind k n;\nn = \"n\";\na = @new(k) @ref(q);",
			`g:3:13: unknown kind q (declare it with %kind)`},
		{"kind with undefined name rule", "%kind k nm;\na = @new(k);",
			`g:1:9: undefined rule nm (the name rule of kind k)`},
		{"duplicate kind", "%kind k a;\n%kind k a;\na = @new(k);",
			`g:2:7: duplicate kind k (first declared at g:1:7)`},
		{"never terminates", "a = \"x\" b;\nb = \"(\" b \")\" | \"[\" a \"]\";",
			"g:1:1: rule a can never finish a derivation\ng:2:1: rule b can never finish a derivation"},
		{"variant never terminates", "a = b<X> | b<Y>;\nb<X> = \"x\";\nb<Y> = \"y\" b<Y>;",
			`g:3:1: rule b<Y> can never finish a derivation`},
		{"unbound variable", `a = "x" $V;`,
			`g:1:9: unbound variable $V`},
		{"variable bound in a group", `a = ($V="x" | "y") $V;`,
			`g:1:20: unbound variable $V`},
		{"variable bound twice", `a = $V="x" $V="y";`,
			`g:1:12: variable $V is already bound`},
		{"wrong arity", "a = b<X>;\nb = \"y\";",
			`g:1:5: rule b takes 0 arguments, not 1`},
		{"variant arity", "a = b<X>;\nb<X> = \"1\";\nb<X, Y> = \"2\";",
			`g:3:1: rule b has 2 parameters here but 1 at g:2:1`},
		{"shadowed variant", "a = b<X>;\nb<$T> = \"1\";\nb<X> = \"2\";",
			`g:3:1: rule b<X> is never selected: b<$T> (variant 1) matches first`},
		{"no matching variant", "a = b<Y>;\nb<X> = \"1\";",
			`g:1:5: no definition of b matches b<Y>`},
		{"empty alternative", `a = "x" | | "y";`,
			`g:1:11: expected an item (write "" for an empty alternative), found "|"`},
		{"unknown directive", "%deep 3;\na = \"x\";",
			`g:1:1: unknown directive %deep`},
		{"bad depth", "%depth 0;\na = \"x\";",
			`g:1:8: bad depth limit 0: must be 1..1000`},
		{"unknown action", `a = @make(k);`,
			`g:1:5: unknown action @make (want @new, @ref, @take or @indent)`},
		{"unknown attribute", `a = $V="x" $V.kind;`,
			`g:1:15: unknown attribute kind (only .tag)`},
		{"undefined start", "%start s;\na = \"x\";",
			`g:1:8: undefined start rule s`},
		{"start rule with parameters", "%start b;\nb<$X> = \"x\";",
			`g:1:8: start rule b must have no parameters`},
		{"first rule with parameters", "b<$X> = \"x\";",
			`g:1:1: start rule b must have no parameters`},
		{"column counts characters", `a = "é" b;`,
			`g:1:9: undefined rule b`},
		{"stray character", `a = "x" & "y";`,
			`g:1:9: unexpected character '&'`},
		{"errors in several rules", "a = b c;\nb = \"x\"{2,1};\nc = 2000000: \"y\";",
			"g:2:8: bad bounds {2,1}: minimum above maximum\ng:3:5: bad weight 2000000: must be 0..1000000"},
		{"recovery after a syntax error", "a = ( \"x\";\nb = \"y\" | ;\nc = \"z\";",
			"g:1:10: expected \")\", found \";\"\ng:2:11: expected an item (write \"\" for an empty alternative), found \";\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := grammar.Parse("g", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			var list grammar.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestWarnings checks that rules and kinds no derivation uses are warned
// about, and that warnings are not errors.
func TestWarnings(t *testing.T) {
	src := "%kind k n;\n%kind unused n;\na = @new(k);\nn = [a-z]{3};\nspare = \"x\";\n"
	g, err := grammar.Parse("g", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range g.Warnings() {
		got = append(got, w.Error())
	}
	want := "g:2:7: kind unused is never used\ng:5:1: rule spare is never used"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// TestValidGrammar checks that the notation's constructs parse.
func TestValidGrammar(t *testing.T) {
	src := `# a comment
%start s;
%depth 5;
%indent "\t";
%kind k name;
%reserve if "else" _x;
s = "a" | 2: b<X, "y z"> | [^a-z] | c? | c{2} | c{1,3} | @indent("\n" c) | $V=@new(k) $V $V.tag;
b<$P, $Q> = $P $Q;
c = "c" @ref(k, T) @take(k);
name = [A-Za-z_\-\]] [0-9];
`
	if _, err := grammar.Parse("g", []byte(src)); err != nil {
		t.Fatal(err)
	}
}
