package main

import (
	"os"
	"path/filepath"
	"strings"
)

// invocation is the command that starts mcpt again the way this process
// was started (argv0 is its os.Args[0]), for the commands mcpt prints and
// records: "go run ./cmd/mcpt" in a checkout when started with go run (the
// module path elsewhere), the path it was started by, or "mcpt" when it
// was found on PATH.
func invocation(argv0 string) string {
	slash := filepath.ToSlash(argv0)
	if strings.Contains(slash, "/go-build") && strings.Contains(slash, "/exe/") {
		if _, err := os.Stat(filepath.Join("cmd", "mcpt", "main.go")); err == nil {
			return "go run ./cmd/mcpt"
		}
		return "go run github.com/mcpt-tool/mcpt/cmd/mcpt"
	}
	if argv0 == "" || !strings.ContainsRune(argv0, os.PathSeparator) {
		return "mcpt"
	}
	if strings.ContainsAny(argv0, " \t'\"\\$`") {
		return quoteArgs([]string{argv0})
	}
	return argv0
}
