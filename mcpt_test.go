package mcpt_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestLoadOptions: what the options add is what a configuration can name,
// and options that contradict each other are an error.
func TestLoadOptions(t *testing.T) {
	_, err := mcpt.Load("examples/cll/go-relation.yaml", mcpt.Builtin(cllc.Name, cllc.New))
	if err == nil || !strings.Contains(err.Error(), `go-relation.yaml:11:8: no Go relation named "add-actuator-command-go"`) {
		t.Errorf("without the Go relation: %v", err)
	}
	_, err = mcpt.Load("examples/cll/go-relation.yaml", mcpt.Relations(gorel.AddCommand()), mcpt.Relations(gorel.AddCommand()))
	if err == nil || !strings.Contains(err.Error(), "relation add-actuator-command-go defined twice") {
		t.Errorf("a relation given twice: %v", err)
	}
	_, err = mcpt.Load("examples/cll/go-relation.yaml", mcpt.Builtin("x", cllc.New), mcpt.Builtin("x", cllc.New))
	if err == nil || !strings.Contains(err.Error(), "builtin transpiler x given twice") {
		t.Errorf("a builtin given twice: %v", err)
	}

	// A builtin of the program's own, under a name of its choosing.
	traffic, err := filepath.Abs("examples/cll/traffic.cll")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "mcpt.yaml")
	yaml := "transpiler: {builtin: own-cllc}\nseeds: {files: ['" + traffic + "']}\nrelations: {go: [add-actuator-command-go]}\nbudget: {max_cases: 7}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpt.Load(cfg, mcpt.Relations(gorel.AddCommand())); err == nil || !strings.Contains(err.Error(), `unknown builtin transpiler "own-cllc"`) {
		t.Errorf("without the builtin: %v", err)
	}
	c, err := mcpt.Load(cfg, mcpt.Relations(gorel.AddCommand()), mcpt.Builtin("own-cllc", cllc.New))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != 7 || len(rep.Findings) != 0 {
		t.Errorf("%d test cases, %d findings; want 7 and none", rep.TestCases, len(rep.Findings))
	}
}
