package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cllc": main})
}

// TestScripts runs the scripts of testdata/script; UPDATE_SCRIPTS=1
// rewrites their expected outputs.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"dirhash": cmdDirhash,
		},
	})
}

// cmdExits runs "exits N prog args...": prog must exit with status N; its
// standard output and error become those of the command.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	err = cmd.Run()
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdDirhash prints every directory and file under DIR (DIR included, dot
// files too), a file with the SHA-256 of its contents, in lexical order, so
// that a script can show that a directory is byte for byte unchanged.
// "dirhash -n DIR" prints the names only.
func cmdDirhash(ts *testscript.TestScript, neg bool, args []string) {
	namesOnly := len(args) == 2 && args[0] == "-n"
	if namesOnly {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dirhash [-n] DIR")
	}
	root := ts.MkAbs(args[0])
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			fmt.Fprintf(ts.Stdout(), "%s/\n", filepath.ToSlash(rel))
			return nil
		}
		if namesOnly {
			fmt.Fprintf(ts.Stdout(), "%s\n", filepath.ToSlash(rel))
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(ts.Stdout(), "%s %x\n", filepath.ToSlash(rel), sha256.Sum256(b))
		return nil
	})
	if err != nil {
		ts.Fatalf("dirhash: %v", err)
	}
}
