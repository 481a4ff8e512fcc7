package infer

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
	"github.com/mcpt-tool/mcpt/tree"
)

// qualifiedSeed has the namespaces of zod's standard-schema.ts: a member
// of one refers to the member of another of the same name
// (`StandardTypedV1.InferInput`), and a class whose method uses its
// fields through `this`.
const qualifiedSeed = `export interface StandardTypedV1 {
  readonly version: 1;
}
export declare namespace StandardTypedV1 {
  type InferInput<Schema extends StandardTypedV1> = Schema["version"];
  type InferOutput<Schema extends StandardTypedV1> = Schema["version"];
}
export declare namespace StandardSchemaV1 {
  type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}
export class Counter {
  count = 0;
  step = 1;
  next(): number {
    this.count += this.step;
    return this.count;
  }
}
`

// A copy renames the names it declares and their uses, but not the right
// side of a qualified name whose left side is a declaration outside it
// (tsc rejected `StandardTypedV1.ZqAbcdef<Schema>`, which names nothing);
// `this.count` in a copy of the class is the copy's own field, renamed.
func TestCopyKeepsQualifiedMembers(t *testing.T) {
	tr, err := typescript.Parser.Parse("standard-schema.ts", []byte(qualifiedSeed))
	if err != nil {
		t.Fatal(err)
	}
	lists := Structure([]*syntax.Tree{tr}, numlit.ECMAScript)
	h := Learn([]Sample{{Tree: tr, Output: tree.Tree{"standard-schema.d.ts": []byte(qualifiedSeed)}}}, lists, numlit.ECMAScript)
	p := &Pack{Syntax: typescript.Parser.Lang(), parser: typescript.Parser, Numbers: "ecmascript", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	rels, err := p.Load()
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "standard-schema.ts", Src: []byte(qualifiedSeed)}
	qualified := regexp.MustCompile(`StandardTypedV1\.(\w+)`)
	namespaces, classes := 0, 0
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
			src := string(fu.Src)
			for _, m := range qualified.FindAllStringSubmatch(src, -1) {
				if m[1] != "InferInput" && m[1] != "InferOutput" {
					t.Errorf("%s at %s: %s names no member of StandardTypedV1:\n%s", rl.Name, sp.Desc, m[0], src)
				}
			}
			if strings.Count(src, "namespace ") == 3 {
				namespaces++
			}
			if i := strings.Index(src, "class Zq"); i >= 0 {
				classes++
				cp := src[i:]
				if strings.Contains(cp, "this.count") || strings.Contains(cp, "this.step") || !strings.Contains(cp, "this.zq") {
					t.Errorf("%s at %s: the copy's fields are not renamed where it uses them:\n%s", rl.Name, sp.Desc, cp)
				}
			}
		}
	}
	if namespaces == 0 || classes == 0 {
		t.Errorf("%d copies of a namespace, %d of the class: want some of each", namespaces, classes)
	}
}
