package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// invocation is the command that starts mcpt again the way this process
// was started, for the commands mcpt prints and records: argv0 is its
// os.Args[0], mainPkg the import path of its main package and module the
// path of the module that holds it. Started with go run, that is "go run
// ./cmd/mcpt" in the module's root (the import path elsewhere); otherwise
// the absolute path of the program when it was started by a path, so that
// the command works from any directory, or "mcpt" when it was found on
// PATH.
func invocation(argv0, mainPkg, module string) string {
	slash := filepath.ToSlash(argv0)
	if strings.Contains(slash, "/go-build") && strings.Contains(slash, "/exe/") {
		if mainPkg == "" {
			mainPkg = "github.com/mcpt-tool/mcpt/cmd/mcpt"
		}
		if rel, ok := strings.CutPrefix(mainPkg, module+"/"); ok && module != "" && isDir(filepath.FromSlash(rel)) {
			return "go run ./" + rel
		}
		return "go run " + mainPkg
	}
	if argv0 == "" || !strings.ContainsRune(argv0, os.PathSeparator) {
		return "mcpt"
	}
	if abs, err := filepath.Abs(argv0); err == nil {
		argv0 = abs
	}
	if strings.ContainsAny(argv0, " \t'\"\\$`") {
		return quoteArgs([]string{argv0})
	}
	return argv0
}

// mainPackage is the import path of the program's main package and the
// path of its module, as the build recorded them.
func mainPackage() (pkg, module string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	return bi.Path, bi.Main.Path
}
