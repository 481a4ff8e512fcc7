package transpiler

import (
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

// TestRoleNames: a run's role is named in findings as result names it.
func TestRoleNames(t *testing.T) {
	if Base.String() != result.RoleBase || FollowUp.String() != result.RoleFollowUp {
		t.Errorf("roles %q %q, result names %q %q", Base, FollowUp, result.RoleBase, result.RoleFollowUp)
	}
}
