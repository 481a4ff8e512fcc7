package infer

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// A transpiler that rejects a program of more than four types (as tsc
// rejects an object type a copy adds a property to where an object
// literal must have them all): a copy is rejected on the seed of four
// types, and accepted on those of three. The probes of the relation,
// one rejected of four, keep it; tried on each seed, it is not run on the
// seed of four types, and its doc says so with the transpiler's message.
func TestInferRejectedOnSeed(t *testing.T) {
	g, err := grammar.Parse("types.grammar", []byte(typesGrammar))
	if err != nil {
		t.Fatal(err)
	}
	var seeds []Seed
	for i, s := range typesSeeds {
		seeds = append(seeds, Seed{Name: fmt.Sprintf("dir/s%d.types", i), Src: []byte(s)})
	}
	inner := typesTranspiler(false)
	decl := regexp.MustCompile(`type (\w+) \{`)
	tr := transpiler.Func(func(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
		if n := len(decl.FindAllString(string(req.Src), -1)); n > 4 {
			msg := fmt.Sprintf("\n/scratch/run-17/%s(2,1): error: %d types, at most 4\nmore\n", req.Name, n)
			return &transpiler.Result{Status: transpiler.Rejected, ExitCode: 1, Stderr: []byte(msg)}, nil
		}
		return inner.Transpile(ctx, req)
	})
	for _, workers := range []int{1, 2} {
		res, err := Infer(context.Background(), seeds, Options{Syntax: "../types.grammar", Parser: grammar.NewParser(g), Transpiler: tr, Workers: workers})
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
		if why, ok := res.Pack.Left[rel.Name]; ok {
			t.Fatalf("%s left out: %s", rel.Name, why)
		}
		if got := strings.Join(rel.Kind.RejectedOn, ","); got != "s1.types" {
			t.Errorf("workers %d: rejected on %q, want s1.types", workers, got)
		}
		if want := "s1.types(2,1): error: 5 types, at most 4"; rel.Kind.RejectedBy != want {
			t.Errorf("workers %d: the message %q, want %q", workers, rel.Kind.RejectedBy, want)
		}
		_, files := res.Pack.Files()
		all := ""
		for _, f := range files {
			all += string(f)
		}
		if !strings.Contains(all, "Not tested on s1.types: the transpiler rejected a copy there (s1.types(2,1): error: 5 types, at most 4).") {
			t.Errorf("the relation's doc does not say where it is not run:\n%s", all)
		}
		rels, err := res.Pack.Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, rl := range rels {
			if rl.Name != rel.Name {
				continue
			}
			for i, s := range seeds {
				// (as a campaign names its input: the seed's base name)
				spots, err := rl.Spots(context.Background(), relation.Input{Name: strings.TrimPrefix(s.Name, "dir/"), Src: s.Src})
				if err != nil {
					t.Fatal(err)
				}
				if (len(spots) == 0) != (i == 1) {
					t.Errorf("workers %d: %d spots on %s", workers, len(spots), s.Name)
				}
			}
		}
	}
}

// The message of a rejection is its line that says error, from the
// input's name on (the run's directory is not the user's): protoc warns
// first of a file without a syntax statement.
func TestFirstLine(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"[libprotobuf WARNING google/protobuf/compiler/parser.cc:650] No syntax specified for the proto file: Authentication.proto. Please use 'syntax = \"proto2\";'\n/tmp/run-3/in/Authentication.proto:12:3: \"zqabcdef\" is already defined in \"Auth\".\n", "Authentication.proto:12:3: \"zqabcdef\" is already defined in \"Auth\"."},
		{"/tmp/x/in/zod-util.ts(12,5): error TS2741: Property 'zqabcdef' is missing in type '{ a: string; }'.\n", "zod-util.ts(12,5): error TS2741: Property 'zqabcdef' is missing in type '{ a: string; }'."},
		{"\n\nsomething failed\n", "something failed"},
		{"", "no message"},
		{strings.Repeat("é", 100), strings.Repeat("é", 80) + "…"},
	} {
		name := "Authentication.proto"
		if strings.Contains(c.msg, "zod") {
			name = "zod-util.ts"
		}
		if got := firstLine([]byte(c.msg), name); got != c.want {
			t.Errorf("firstLine(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
