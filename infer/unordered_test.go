package infer

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// typesGrammar reads lists of types that a last line uses, as a user
// writes a grammar of a language mcpt has no parser of.
const typesGrammar = `%start doc;
%kind ty tname;
doc = ("\n" decl){2,5} "\nuse" (" " @ref(ty)){1,5} ";\n";
decl = "type " @new(ty) " { size: int }";
tname = [A-Z] [a-z]{2,5};
`

// typesSeeds declare their types in no order of their names, and use
// each in the order they declare them.
var typesSeeds = []string{
	"type Delta { size: int }\ntype Alpha { size: int }\ntype Charlie { size: int }\nuse Delta Alpha Charlie;\n",
	"type Pear { size: int }\ntype Apple { size: int }\ntype Fig { size: int }\ntype Kiwi { size: int }\nuse Pear Apple Fig Kiwi;\n",
	"type Oslo { size: int }\ntype Bern { size: int }\ntype Rome { size: int }\nuse Oslo Bern Rome;\n",
	"type Tulip { size: int }\ntype Rose { size: int }\ntype Lily { size: int }\nuse Tulip Rose Lily;\n",
}

// typesTranspiler writes an interface per type: with usedFirst, those the
// use line names in its order and then the others (as json2ts writes the
// definitions nothing refers to after the others), else all of them in
// the input's order.
func typesTranspiler(usedFirst bool) transpiler.Transpiler {
	decl := regexp.MustCompile(`type (\w+) \{`)
	use := regexp.MustCompile(`use ([\w ]+);`)
	return transpiler.Func(func(_ context.Context, req transpiler.Request) (*transpiler.Result, error) {
		var names []string
		for _, m := range decl.FindAllStringSubmatch(string(req.Src), -1) {
			names = append(names, m[1])
		}
		if usedFirst {
			var used, rest []string
			seen := map[string]bool{}
			if m := use.FindStringSubmatch(string(req.Src)); m != nil {
				for _, n := range strings.Fields(m[1]) {
					used = append(used, n)
					seen[n] = true
				}
			}
			for _, n := range names {
				if !seen[n] {
					rest = append(rest, n)
				}
			}
			names = append(used, rest...)
		}
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "export interface %s {\n  size: number;\n}\n", n)
		}
		return &transpiler.Result{Status: transpiler.Accepted, Files: tree.Tree{"types.ts": []byte(b.String())}}, nil
	})
}

// A campaign on a language of the user's grammar (syntax: a grammar file
// relative to the relation files, which the pack does not hold) infers
// and loads its relations. Where the follow-ups between two types put the
// copy out of its neighbours' order on the seeds, the transpiler's way
// with a type nothing uses, the relation checks no order; where they keep
// it, it does.
func TestInferUnordered(t *testing.T) {
	g, err := grammar.Parse("types.grammar", []byte(typesGrammar))
	if err != nil {
		t.Fatal(err)
	}
	var seeds []Seed
	for i, s := range typesSeeds {
		seeds = append(seeds, Seed{Name: fmt.Sprintf("s%d.types", i), Src: []byte(s)})
	}
	for _, tc := range []struct {
		usedFirst bool
		seeds     []Seed
	}{
		{false, seeds}, {true, seeds},
		// one seed: a single follow-up tried at any spot
		{true, seeds[1:2]},
	} {
		usedFirst := tc.usedFirst
		t.Run(fmt.Sprintf("usedFirst=%v,seeds=%d", usedFirst, len(tc.seeds)), func(t *testing.T) {
			res, err := Infer(context.Background(), tc.seeds, Options{Syntax: "../types.grammar", Parser: grammar.NewParser(g), Transpiler: typesTranspiler(usedFirst), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			var rel *Relation
			for _, r := range res.Pack.Relations() {
				if r.Kind.Node == "decl" {
					rel = &r
				}
			}
			if rel == nil {
				t.Fatalf("no relation copies a decl (relations %v)", res.Pack.Relations())
			}
			if len(rel.List.Places) == 0 {
				t.Fatal("no place learned where the output lists the types in the input's order")
			}
			if _, err := res.Pack.Load(); err != nil {
				t.Fatalf("the relations do not load: %v", err)
			}
			names, files := res.Pack.Files()
			var all strings.Builder
			for _, n := range names {
				all.Write(files[n])
			}
			hasOrder := strings.Contains(all.String(), "- order:")
			if rel.Kind.Unordered != usedFirst || hasOrder == usedFirst {
				t.Errorf("Unordered %v and an order check %v, want %v and %v:\n%s", rel.Kind.Unordered, hasOrder, usedFirst, !usedFirst, all.String())
			}
		})
	}
}
