// Command mcpt is mcpt with the Thrift pack's add-service-method relation
// written in Go (package gorel) in place of its YAML twin. From
// examples/thrift,
//
//	go run ./gorel/mcpt run -c go-relation.yaml
//
// runs it on the pack's seeds.
package main

import (
	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/examples/thrift/gorel"
)

func main() { mcpt.Main(mcpt.Relations(gorel.AddServiceMethod())) }
