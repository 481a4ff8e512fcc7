package mcpt_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// An mcpt of one's own is a main package that calls Main with its
// relations and builtin transpilers; its configurations name them under
// relations.go and transpiler.builtin.
func ExampleMain() {
	// func main() {
	mcpt.Main(mcpt.Relations(gorel.AddCommand()), mcpt.Builtin(cllc.Name, cllc.New))
	// }
}

// Load reads a configuration into a campaign, which runs from Go: here
// the paper's working example, cllc with its reverse-enums fault.
func ExampleLoad() {
	c, err := mcpt.Load("examples/cll/demo.yaml", mcpt.Builtin(cllc.Name, cllc.New))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.Options.MaxCases = 100
	rep, err := c.Run(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d test cases: %s\n", rep.TestCases, result.TallyOf(rep.Findings))
	for _, g := range rep.Groups {
		fmt.Printf("%dx %s\n", g.Count, g.Title)
	}
	// Output:
	// 100 test cases: 10 test cases with findings (20 failed checkers)
	// 6x augment-enumeration: enumerator-and-count *_types.h (e.g. traffic_light_types.h)
	// 6x augment-enumeration: name-table *_types.c (e.g. traffic_light_types.c)
	// 4x add-enumeration: type-block *_types.h (e.g. traffic_light_types.h)
	// 4x add-enumeration: name-table-and-function *_types.c (e.g. traffic_light_types.c)
}

// A relation written in Go joins a campaign through Relations: the
// configuration names it under relations.go, beside its YAML twin.
func ExampleRelations() {
	c, err := mcpt.Load("examples/cll/go-relation.yaml", mcpt.Relations(gorel.AddCommand()), mcpt.Builtin(cllc.Name, cllc.New))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.Options.MaxCases = 40
	rep, err := c.Run(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range c.Relations {
		fmt.Printf("%s: %d test cases, %d findings\n", r.Name, rep.ByRelation[r.Name].TestCases, len(rep.Findings))
	}
	// Output:
	// add-actuator-command: 20 test cases, 0 findings
	// add-actuator-command-go: 20 test cases, 0 findings
}
