package cll_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/cll/token"
)

func exampleSources(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("../examples/cll/*.cll")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = src
	}
	return out
}

func TestTranspileTraffic(t *testing.T) {
	src := exampleSources(t)["traffic.cll"]
	files, err := cll.Transpile("traffic.cll", src)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"traffic_light.c", "traffic_light.h", "traffic_light_attrs.h", "traffic_light_config.c",
		"traffic_light_config.h", "traffic_light_io.h", "traffic_light_types.c", "traffic_light_types.h"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
}

func TestTranspileStaticError(t *testing.T) {
	src := []byte("logic L\n\ndeclarations\n  states A\n  timer A\n\ninit\n\ncycle\n  send Nope\n\nconfiguration\n  cycle time 1 s\n")
	files, err := cll.Transpile("bad.cll", src)
	if files != nil {
		t.Errorf("files returned with error %v", err)
	}
	var list token.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is no token.ErrorList", err, err)
	}
	if len(list) != 2 {
		t.Fatalf("%d errors, want 2: %v", len(list), list)
	}
	for i, wantPrefix := range []string{"bad.cll:5:9: ", "bad.cll:10:8: "} {
		if got := list[i].Error(); !strings.HasPrefix(got, wantPrefix) {
			t.Errorf("error %d is %q, want it at %s", i, got, wantPrefix)
		}
	}
}

func TestTranspileUnknownFault(t *testing.T) {
	for _, src := range [][]byte{exampleSources(t)["traffic.cll"], []byte("not a program")} {
		files, err := cll.Transpile("x.cll", src, "reverse-enums", "no-such-fault")
		if files != nil || !errors.Is(err, cll.ErrUnknownFault) {
			t.Errorf("files %v, error %v; want none and ErrUnknownFault", files != nil, err)
		}
	}
}

func TestFaults(t *testing.T) {
	fs := cll.Faults()
	if len(fs) < 6 {
		t.Fatalf("%d faults, want at least 6", len(fs))
	}
	if !slices.IsSortedFunc(fs, func(a, b cll.Fault) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("Faults not sorted")
	}
	src := exampleSources(t)["traffic.cll"]
	def, err := cll.Transpile("traffic.cll", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if _, err := cll.Transpile("traffic.cll", src, f.Name); err != nil {
			t.Errorf("fault %s: %v", f.Name, err)
		}
	}
	// Switching faults on leaves later default runs alone.
	again, err := cll.Transpile("traffic.cll", src)
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range def {
		if string(again[n]) != string(b) {
			t.Errorf("%s changed after runs with faults", n)
		}
	}
}

// FuzzTranspile feeds arbitrary sources, with one fault or none. Transpile
// must not panic; an error comes without files and is the positioned
// error list of the front end (anything else would mean that the C
// generator refuses a program the checker accepted); success gives the
// eight files, the same in a second run.
func FuzzTranspile(f *testing.F) {
	for _, src := range exampleSources(f) {
		f.Add(src, uint8(0))
	}
	f.Add([]byte("logic L declarations states A init cycle configuration cycle time 1ms"), uint8(3))
	faults := cll.Faults()
	f.Fuzz(func(t *testing.T, src []byte, fault uint8) {
		var names []string
		if i := int(fault) % (len(faults) + 1); i > 0 {
			names = append(names, faults[i-1].Name)
		}
		files, err := cll.Transpile("fuzz.cll", src, names...)
		if err != nil {
			if files != nil {
				t.Fatalf("files returned with error %v", err)
			}
			var list token.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is no positioned error list", err, err)
			}
			for _, e := range list {
				if !e.Pos.IsValid() || e.Pos.File != "fuzz.cll" {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		if len(files) != 8 {
			t.Fatalf("%d files", len(files))
		}
		again, err := cll.Transpile("fuzz.cll", src, names...)
		if err != nil {
			t.Fatalf("second run: %v", err)
		}
		for n, b := range files {
			if len(b) == 0 {
				t.Fatalf("%s is empty", n)
			}
			if string(again[n]) != string(b) {
				t.Fatalf("%s differs between two runs", n)
			}
		}
	})
}

// bigProgram returns a valid program of about lines lines: a declarations
// section with every kind of declaration, and a cycle of nested ifs with
// arithmetic, sends, sets, timers and transitions.
func bigProgram(lines int) []byte {
	var b strings.Builder
	n := lines / 20 // declarations of each kind
	b.WriteString("logic BigPlant\n\ndeclarations\n  states S0")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, ", S%d", i)
	}
	b.WriteString("\n")
	for i := 0; i < n/4; i++ {
		fmt.Fprintf(&b, "  enumeration Mode%d { M%dA, M%dB, M%dC, M%dD }\n", i, i, i, i, i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  command Cmd%d\n", i)
		fmt.Fprintf(&b, "  configuration parameter Limit%d : Integer\n", i)
		fmt.Fprintf(&b, "  variable Count%d : Integer = %d\n", i, i)
		fmt.Fprintf(&b, "  variable Level%d : Real\n", i)
		fmt.Fprintf(&b, "  variable On%d : Boolean\n", i)
		fmt.Fprintf(&b, "  timer Delay%d\n", i)
		fmt.Fprintf(&b, "  input event Press%d\n", i)
		fmt.Fprintf(&b, "  attribute Label%d : String = \"unit %d??\"\n", i, i)
	}
	b.WriteString("\ninit\n  transition to S0\n\ncycle\n")
	written := strings.Count(b.String(), "\n")
	for i := 0; written < lines-n-6; i++ {
		k := i % n
		fmt.Fprintf(&b, "  if Press%d or Count%d mod 7 = 3 and not On%d then\n", k, k, k)
		fmt.Fprintf(&b, "    set Count%d = (Count%d + Limit%d) * 3 / 2 - 1\n", k, k, k)
		fmt.Fprintf(&b, "    set Level%d = Level%d / 2.5 + Count%d\n", k, k, k)
		fmt.Fprintf(&b, "    start Delay%d for 300 ms\n", k)
		b.WriteString("  elif state >= S5 then\n")
		fmt.Fprintf(&b, "    send Cmd%d\n", k)
		fmt.Fprintf(&b, "    set On%d = Delay%d expired\n", k, k)
		b.WriteString("    transition to next\n")
		b.WriteString("  else\n")
		fmt.Fprintf(&b, "    stop Delay%d\n", k)
		b.WriteString("  end\n")
		written += 11
	}
	b.WriteString("\nconfiguration\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  Limit%d = %d\n", i, i*10)
	}
	b.WriteString("  cycle time 100 ms\n")
	return []byte(b.String())
}

func TestBigProgram(t *testing.T) {
	src := bigProgram(2000)
	if n := strings.Count(string(src), "\n"); n < 1900 || n > 2100 {
		t.Errorf("big program has %d lines", n)
	}
	if _, err := cll.Transpile("big.cll", src); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkTranspile transpiles a generated program of 2,000 lines.
func BenchmarkTranspile(b *testing.B) {
	src := bigProgram(2000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := cll.Transpile("big.cll", src); err != nil {
			b.Fatal(err)
		}
	}
}
