// Command mcpt is mcpt with the example relation written in Go,
// add-actuator-command-go, beside the builtin cllc transpiler: the way a
// program of one's own adds relations to mcpt. From the repository's root,
//
//	go run ./examples/cll/gorel/mcpt run -c examples/cll/go-relation.yaml
//
// runs the relation and its YAML twin on the CLL examples.
package main

import (
	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

func main() { mcpt.Main(mcpt.Relations(gorel.AddCommand()), mcpt.Builtin(cllc.Name, cllc.New)) }
