package yamlrel

import (
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// TestConfinedCompared: a confined failure records what the check allows
// and the lines of the file that mention a fresh name, with the form.
func TestConfinedCompared(t *testing.T) {
	c := &confined{name: "confined", fresh: []oracle.Name{oracle.NewName([]string{"Zqnew", "zqnew", "ZQNEW"})}, files: []string{"door.h"}}
	fails := c.Check(nil, tree.Tree{"door.h": []byte("int zqnew;\n"), "door.c": []byte("int hold;\n#define ZQNEW_MS 10\nint zqnew_ms;\n")})
	if len(fails) != 1 || fails[0].File != "door.c" || fails[0].Compared == nil {
		t.Fatalf("%+v", fails)
	}
	cmp := fails[0].Compared
	if cmp.Kind != result.CmpConfined || cmp.Expects != "The fresh names (Zqnew), in any of their forms, appear in no file of o′ but door.h." {
		t.Errorf("kind %s, expects %q", cmp.Kind, cmp.Expects)
	}
	if len(cmp.Lines) != 2 || cmp.Lines[0].O2.N != 2 || cmp.Lines[0].Why != "mentions Zqnew as ZQNEW" || cmp.Lines[1].O2.N != 3 || cmp.Lines[1].O2.Text != "int zqnew_ms;" || cmp.Lines[1].Role != result.RoleMention {
		t.Errorf("lines %+v", cmp.Lines)
	}
}
