package examples_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
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
			rels := packRelations(b, p.pack, p.relations)
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

// packSeeds are bigSeeds and the packs whose spots conditions are too slow
// on 50,000 declarations for BenchmarkPackSpots (FlatBuffers: a condition
// of add-table reads every field at each spot).
var packSeeds = append([]struct {
	pack, ext string
	relations []string
	decl      string
	head      string
	release   string
}{
	{"cll", "cll", []string{"cll/relations/*.yaml"},
		"  command C%[1]d, D%[1]d\n", "logic Big\n\ndeclarations\n  states A, B\n", ""},
	{"flatbuffers", "fbs", []string{"flatbuffers/relations/*.yaml"},
		"table T%d {\n  a: int;\n  b: string;\n}\n\n", "namespace big;\n\n", ""},
}, bigSeeds...)

// BenchmarkPackMemory reports what the relations of a pack keep of a seed
// of 2,000 declarations (FlatBuffers: 500) once its spots are listed, in bytes a seed byte
// (the heap after a collection, with the spots held): its syntax tree,
// declarations and spots. Seeds up to yamlrel.MaxSeed are read, and
// docs/campaigns.md gives the figures.
func BenchmarkPackMemory(b *testing.B) {
	for _, p := range packSeeds {
		b.Run(p.pack, func(b *testing.B) {
			rels := packRelations(b, p.pack, p.relations)
			n := 2000
			if p.pack == "flatbuffers" {
				n = 500 // (2,000 take minutes: see packSeeds)
			}
			var src bytes.Buffer
			src.WriteString(p.head)
			for i := range n {
				fmt.Fprintf(&src, p.decl, i)
			}
			if p.pack == "cll" {
				src.WriteString("\ninit\n  transition to A\n\ncycle\n  transition to next\n\nconfiguration\n  cycle time 10 s\n")
			}
			var kept float64
			for i := 0; b.Loop(); i++ {
				in := relation.Input{Name: "big." + p.ext, Src: fmt.Appendf(bytes.Clone(src.Bytes()), "// %d\n", i), Release: p.release}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var held [][]relation.Spot
				spots := 0
				for _, r := range rels {
					ss, err := r.Spots(context.Background(), in)
					if err != nil {
						b.Fatalf("%s: %v", r.Name, err)
					}
					held = append(held, ss)
					spots += len(ss)
				}
				if spots < n {
					b.Fatalf("%d spots on %d declarations", spots, n)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				kept = (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(len(in.Src))
				runtime.KeepAlive(held)
			}
			b.ReportMetric(kept, "B/seed-byte")
		})
	}
}

// packRelations loads the relation files that the patterns of a pack
// match; none is an error.
func packRelations(b *testing.B, pack string, patterns []string) []*relation.Relation {
	b.Helper()
	var files []string
	for _, pat := range patterns {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	if len(files) == 0 {
		b.Fatalf("no relation files for %s", pack)
	}
	return loadRelationSets(b, files)
}
