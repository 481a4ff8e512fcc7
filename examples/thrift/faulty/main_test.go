package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/testtier"
)

// TestDirectIsWrapped: without a wrapper, faulty writes what it writes
// after gen.sh, file for file, on every seed of the pack and with either
// fault, and a rejection keeps thrift's exit status.
func TestDirectIsWrapped(t *testing.T) {
	testtier.Tools(t, "apt-get install thrift-compiler", "thrift")
	bin := filepath.Join(t.TempDir(), "faulty")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	seeds, err := filepath.Glob("../*.thrift")
	if err != nil || len(seeds) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	// The seeds' ids ascend, which the field-order fault leaves as they
	// are; this struct's do not.
	unsorted := filepath.Join(t.TempDir(), "unsorted.thrift")
	if err := os.WriteFile(unsorted, []byte("struct S {\n  2: i32 b\n  1: string a\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seeds = append(seeds, unsorted)
	correct := filepath.Join(t.TempDir(), "out")
	runIn(t, "..", 0, "./gen.sh", unsorted, correct)
	if a, b := readTree(t, correct)["cpp/unsorted_types.cpp"], readTree(t, faultyOut(t, bin, unsorted))["cpp/unsorted_types.cpp"]; len(a) == 0 || bytes.Equal(a, b) {
		t.Fatalf("the field-order fault changed nothing in unsorted_types.cpp (%d bytes)", len(a))
	}
	for _, fault := range []string{"-fault=field-order", "-fault=process-order"} {
		for _, seed := range seeds {
			seed, _ := filepath.Abs(seed)
			wrapped, direct := filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "out")
			runIn(t, "..", 0, bin, fault, "./gen.sh", seed, wrapped)
			runIn(t, "..", 0, bin, fault, seed, direct)
			a, b := readTree(t, wrapped), readTree(t, direct)
			if len(a) == 0 {
				t.Fatalf("%s %s: gen.sh wrote nothing", fault, seed)
			}
			for name, content := range a {
				if got, ok := b[name]; !ok {
					t.Errorf("%s %s: %s missing without the wrapper", fault, seed, name)
				} else if !bytes.Equal(got, content) {
					t.Errorf("%s %s: %s differs without the wrapper", fault, seed, name)
				}
			}
			for name := range b {
				if _, ok := a[name]; !ok {
					t.Errorf("%s %s: %s written only without the wrapper", fault, seed, name)
				}
			}
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.thrift")
	if err := os.WriteFile(bad, []byte("struct X { 1: i32 a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, "..", 1, bin, bad, filepath.Join(t.TempDir(), "out"))
}

// faultyOut is the output of faulty, without a wrapper, on seed.
func faultyOut(t *testing.T, bin, seed string) string {
	out := filepath.Join(t.TempDir(), "out")
	runIn(t, "..", 0, bin, seed, out)
	return out
}

// runIn runs a command in dir and checks its exit status.
func runIn(t *testing.T, dir string, want int, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("%s %s: exit status %d, want %d\n%s", name, strings.Join(args, " "), got, want, out)
	}
}

// readTree reads every regular file under dir, by its slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
