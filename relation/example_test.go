package relation_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

var (
	logicRE = regexp.MustCompile(`(?m)^logic\s+(\w+)`)
	declsRE = regexp.MustCompile(`(?m)^declarations[ \t]*\n`)
	fresh   = must(relation.ParseFreshPattern("Zq[a-z]{6}"))
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// firstCommand is a relation written in Go: a command declared first in a
// CLL program adds its prototype first to p_io.h and changes no other
// file of cllc's output.
var firstCommand = &relation.Relation{
	Name: "first-command",
	Doc:  "A command declared first adds its prototype first to p_io.h, and changes nothing else.",
	// One spot: the start of the declarations.
	Spots: func(_ context.Context, in relation.Input) ([]relation.Spot, error) {
		loc := declsRE.FindIndex(in.Src)
		if loc == nil || logicRE.Find(in.Src) == nil {
			return nil, nil
		}
		line := 1 + bytes.Count(in.Src[:loc[1]], []byte("\n"))
		return []relation.Spot{{Line: line, Col: 1, Desc: "start of declarations"}}, nil
	},
	// The follow-up and what its output must be, given the base's.
	Mutate: func(_ context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		n, err := fresh.Fresh(rng, in.Src, map[string]bool{})
		if err != nil {
			return nil, err
		}
		at := declsRE.FindIndex(in.Src)[1]
		src := string(in.Src[:at]) + "  command " + n + "\n" + string(in.Src[at:])
		logic := string(logicRE.FindSubmatch(in.Src)[1])
		p, P := relation.Snake(logic), relation.Upper(logic)
		io := p + "_io.h"
		return &relation.FollowUp{
			Src:      []byte(src),
			Bindings: map[string]string{"N": n},
			Fresh:    []string{"N"},
			Checks: []relation.Checker{
				&oracle.Equivalence{Except: []string{io}},
				&oracle.Difference{Name: "io-header", File: io, Edits: []oracle.Edit{{
					Op:      oracle.Insert,
					Lines:   []string{fmt.Sprintf("void %s_cmd_%s(void);", p, relation.Snake(n))},
					Anchors: []oracle.Anchor{{Path: []oracle.Matcher{{Text: "#define " + P + "_IO_H"}, {Text: ""}}}},
				}}},
			},
		}, nil
	},
}

// A relation written in Go is a Relation value: it lists the spots of an
// input, mutates it at one, and instantiates the checkers that the outputs
// of the input and of the follow-up must pass.
func Example() {
	if err := firstCommand.Validate(); err != nil {
		log.Fatal(err)
	}
	src, err := os.ReadFile("../examples/cll/traffic.cll")
	if err != nil {
		log.Fatal(err)
	}
	in := relation.Input{Name: "traffic.cll", Src: src}
	spots, err := firstCommand.Spots(context.Background(), in)
	if err != nil {
		log.Fatal(err)
	}
	fu, err := firstCommand.Mutate(context.Background(), in, spots[0], rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("spot at line %d (%s): %s\n", spots[0].Line, spots[0].Desc, strings.Split(string(fu.Src), "\n")[3])

	// The correct cllc passes the checks.
	cc, err := cllc.New(nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	transpile := func(src []byte) map[string][]byte {
		res, err := cc.Transpile(context.Background(), transpiler.Request{Name: in.Name, Src: src})
		if err != nil {
			log.Fatal(err)
		}
		return res.Files
	}
	o, o2 := transpile(in.Src), transpile(fu.Src)
	fmt.Println("correct cllc:", len(fu.Check(o, o2)), "failures")

	// An output with the new prototype last fails the difference check.
	io := string(o2["traffic_light_io.h"])
	proto := "void traffic_light_cmd_" + relation.Snake(fu.Bindings["N"]) + "(void);\n"
	o2["traffic_light_io.h"] = []byte(strings.Replace(strings.Replace(io, proto, "", 1), "\n#endif", proto+"\n#endif", 1))
	for _, f := range fu.Check(o, o2) {
		fmt.Printf("broken output: %s: %s\n", f.Checker, f.Message)
	}
	// Output:
	// spot at line 4 (start of declarations):   command Zqpcsaso
	// correct cllc: 0 failures
	// broken output: io-header: traffic_light_io.h in o′ differs from the predicted difference
}
