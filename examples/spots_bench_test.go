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

// cllTail ends a CLL program after its declarations.
const cllTail = "\ninit\n  transition to A\n\ncycle\n  transition to next\n\nconfiguration\n  cycle time 10 s\n"

// packSeeds make a seed of n declarations of a few members each (an enum
// and a type that uses it, in most), in the language of a pack, with the relation files of one of its sets.
var packSeeds = []struct {
	pack, set, ext string
	relations      []string // patterns
	decl           string   // a declaration; %d its number
	head, tail     string
	release        string // the transpiler's release the relations read
}{
	{"cll", "exact", "cll", []string{"cll/relations/*.yaml"},
		"  command C%[1]d, D%[1]d\n", "logic Big\n\ndeclarations\n  states A, B\n", cllTail, ""},
	{"cll", "derived", "cll", []string{"cll/derived/*.yaml"},
		"  command C%[1]d, D%[1]d\n", "logic Big\n\ndeclarations\n  states A, B\n", cllTail, ""},
	{"thrift", "exact", "thrift", []string{"thrift/relations/*.yaml"},
		"enum E%[1]d {\n  A,\n  B\n}\n\nstruct S%[1]d {\n  1: i32 a\n  2: string b\n}\n\n", "namespace cpp big\nnamespace py big\n\n", "", ""},
	{"thrift", "derived", "thrift", []string{"thrift/derived/*.yaml"},
		"enum E%[1]d {\n  A,\n  B\n}\n\nstruct S%[1]d {\n  1: i32 a\n  2: string b\n}\n\n", "namespace cpp big\nnamespace py big\n\n", "", ""},
	// (a deprecated field, which add-table and CreateXDirect look for)
	{"flatbuffers", "exact", "fbs", []string{"flatbuffers/relations/*.yaml"},
		"enum E%[1]d : byte { A, B }\n\ntable T%[1]d {\n  a: int;\n  b: string;\n  c: int (deprecated);\n  e: E%[1]d;\n}\n\n", "namespace big;\n\n", "", ""},
	{"flatbuffers", "derived", "fbs", []string{"flatbuffers/derived/*.yaml"},
		"enum E%[1]d : byte { A, B }\n\ntable T%[1]d {\n  a: int;\n  b: string;\n  c: int (deprecated);\n  e: E%[1]d;\n}\n\n", "namespace big;\n\n", "", ""},
	{"protobuf", "go", "proto", []string{"protobuf/relations/go.defs.yaml", "protobuf/godesc/*.yaml", "protobuf/derived/*.yaml"},
		"enum E%[1]d {\n  E%[1]d_A = 0;\n  E%[1]d_B = 1;\n}\n\nmessage M%[1]d {\n  int32 a = 1;\n  string b = 2;\n  E%[1]d e = 3;\n}\n\n", "syntax = \"proto3\";\n\npackage big;\n\n", "", ""},
	{"typescript", "exact", "ts", []string{"typescript/relations/*.yaml"},
		"export enum E%[1]d {\n  A,\n  B,\n}\n\nexport interface I%[1]d {\n  a: number;\n  b: string;\n}\n\nexport class C%[1]d {\n  a = 1;\n  constructor(public b: string) {}\n}\n\n", "", "", tsRelease},
	{"typescript", "derived", "ts", []string{"typescript/derived/*.yaml"},
		"export enum E%[1]d {\n  A,\n  B,\n}\n\nexport interface I%[1]d {\n  a: number;\n  b: string;\n}\n\nexport class C%[1]d {\n  a = 1;\n  constructor(public b: string) {}\n}\n\n", "", "", tsRelease},
}

// BenchmarkPackSpots lists the spots of every relation of a pack on a
// seed of 1,000 to 50,000 declarations: the time per declaration must
// not grow with their number (item lets and spots conditions that read
// every declaration of the seed for each spot made it quadratic: 5,000
// Thrift structs took 77 s; the derived FlatBuffers relations compared
// each field's neighbours with every type of the schema, and 2,425
// tables took 110 s). Run one pack and size with
// -bench 'PackSpots/thrift-exact/5000'.
func BenchmarkPackSpots(b *testing.B) {
	for _, p := range packSeeds {
		b.Run(p.pack+"-"+p.set, func(b *testing.B) {
			rels := packRelations(b, p.pack, p.relations)
			for _, n := range []int{1000, 5000, 50000} {
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					var src bytes.Buffer
					src.WriteString(p.head)
					for i := range n {
						fmt.Fprintf(&src, p.decl, i)
					}
					src.WriteString(p.tail)
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

// BenchmarkPackMemory reports what the relations of a pack keep of a seed
// of 2,000 declarations once its spots are listed, in bytes a seed byte
// (the heap after a collection, with the spots held): its syntax tree,
// declarations and spots. Seeds up to yamlrel.MaxSeed are read, and
// docs/campaigns.md gives the figures.
func BenchmarkPackMemory(b *testing.B) {
	for _, p := range packSeeds {
		if p.set == "derived" {
			continue // (the figures are of the exact sets)
		}
		b.Run(p.pack, func(b *testing.B) {
			rels := packRelations(b, p.pack, p.relations)
			n := 2000
			var src bytes.Buffer
			src.WriteString(p.head)
			for i := range n {
				fmt.Fprintf(&src, p.decl, i)
			}
			src.WriteString(p.tail)
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
