package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInvocation: the commands mcpt prints start it the way it was started.
func TestInvocation(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for argv0, want := range map[string]string{
		"/tmp/go-build2915/b001/exe/mcpt": "go run github.com/mcpt-tool/mcpt/cmd/mcpt", // go run, outside a checkout's root
		"mcpt":                            "mcpt",
		"./bin/mcpt":                      filepath.Join(wd, "bin", "mcpt"), // works from any directory
		"/usr/local/bin/mcpt":             "/usr/local/bin/mcpt",
		"/opt/my tools/mcpt":              `"/opt/my tools/mcpt"`,
	} {
		if got := invocation(argv0, "github.com/mcpt-tool/mcpt/cmd/mcpt", "github.com/mcpt-tool/mcpt"); got != want {
			t.Errorf("invocation(%q) = %q, want %q", argv0, got, want)
		}
	}
}
