package yamlrel_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Load compiles relations declared in YAML into Relation values, the
// same as those written in Go. It reads the relation files, and the files
// they include, from any fs.FS.
func ExampleLoad() {
	rels, err := yamlrel.Load(os.DirFS("../../examples/cll"), "relations/augment-enumeration.yaml")
	if err != nil {
		log.Fatal(err) // file:line:col: message, for each mistake
	}
	r := rels[0]
	fmt.Println(r.Name)
	src, err := os.ReadFile("../../examples/cll/traffic.cll")
	if err != nil {
		log.Fatal(err)
	}
	in := relation.Input{Name: "traffic.cll", Src: src}
	spots, err := r.Spots(context.Background(), in)
	if err != nil {
		log.Fatal(err)
	}
	for _, sp := range spots {
		fmt.Printf("  spot %d at line %d: %s\n", sp.Index, sp.Line, sp.Desc)
	}
	fu, err := r.Mutate(context.Background(), in, spots[2], rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("N = %s between %s and %s, %d checks\n", fu.Bindings["N"], fu.Bindings["list.before"], fu.Bindings["list.after"], len(fu.Checks))
	// Output:
	// augment-enumeration
	//   spot 0 at line 4: states list, before Red
	//   spot 1 at line 4: states list, between Red and Green
	//   spot 2 at line 4: states list, between Green and Yellow
	//   spot 3 at line 4: states list, after Yellow
	// N = Zququugb between Green and Yellow, 3 checks
}
