package examples_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
)

// bigSeeds make a seed of n declarations of two fields each, in the
// language of a pack, with the relation files of the pack.
var bigSeeds = []struct {
	pack, ext string
	relations []string // patterns
	decl      string   // a declaration; %d its number
	head      string
	release   string // the transpiler's release the relations read
}{
	{"thrift", "thrift", []string{"thrift/relations/*.yaml"},
		"struct S%d {\n  1: i32 a\n  2: string b\n}\n\n", "namespace cpp big\nnamespace py big\n\n", ""},
	{"protobuf", "proto", []string{"protobuf/relations/go.defs.yaml", "protobuf/godesc/*.yaml", "protobuf/derived/*.yaml"},
		"message M%d {\n  int32 a = 1;\n  string b = 2;\n}\n\n", "syntax = \"proto3\";\n\npackage big;\n\n", ""},
	{"typescript", "ts", []string{"typescript/relations/*.yaml"},
		"export interface I%d {\n  a: number;\n  b: string;\n}\n\n", "", tsRelease},
}

// BenchmarkPackSpots lists the spots of every relation of a pack on a
// seed of 1,000 to 50,000 declarations: the time per declaration must
// not grow with their number (item lets and spots conditions that read
// every declaration of the seed for each spot made it quadratic: 5,000
// Thrift structs took 77 s). Run one size with
// -bench 'PackSpots/thrift/5000'.
func BenchmarkPackSpots(b *testing.B) {
	for _, p := range bigSeeds {
		b.Run(p.pack, func(b *testing.B) {
			var files []string
			for _, pat := range p.relations {
				fs, _ := filepath.Glob(pat)
				files = append(files, fs...)
			}
			if len(files) == 0 {
				b.Fatalf("no relation files for %s", p.pack)
			}
			rels := loadRelationSets(b, files)
			for _, n := range []int{1000, 5000, 50000} {
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					var src bytes.Buffer
					src.WriteString(p.head)
					for i := range n {
						fmt.Fprintf(&src, p.decl, i)
					}
					b.ReportAllocs()
					spots := 0
					for i := 0; b.Loop(); i++ {
						// a new input each time (the model and spots of an
						// input are memoised)
						in := relation.Input{Name: "big." + p.ext, Src: fmt.Appendf(bytes.Clone(src.Bytes()), "// %d\n", i), Release: p.release}
						spots = 0
						for _, r := range rels {
							ss, err := r.Spots(context.Background(), in)
							if err != nil {
								b.Fatalf("%s: %v", r.Name, err)
							}
							spots += len(ss)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/decl")
					b.ReportMetric(float64(spots), "spots")
				})
			}
		})
	}
}
