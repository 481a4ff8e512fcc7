package yamlrel

import "testing"

func TestShapeOfNumbers(t *testing.T) {
	for _, tc := range []struct{ a, na, b, nb string }{
		{"  string email = 5;", "email", "  string n = 6;", "n"},
		{"  B = 2,", "B", "  N = -1,", "N"},
		{"  timer T 10 s", "T", "  timer N 2 s", "N"},
		{"  x = (-2147483647 - 1)", "x", "  y = (-5 - 1)", "y"},
	} {
		if sa, sb := shapeOf(tc.a, []string{tc.na}, false), shapeOf(tc.b, []string{tc.nb}, false); sa != sb {
			t.Errorf("%q and %q: shapes %q and %q", tc.a, tc.b, sa, sb)
		}
	}
	if a, b := shapeOf("int32 n = 1;", []string{"n"}, false), shapeOf("int64 n = 1;", []string{"n"}, false); a == b {
		t.Errorf("int32 and int64: the same shape %q", a)
	}
	if a, b := shapeOf("x = n - 1", []string{"x"}, false), shapeOf("x = n 1", []string{"x"}, false); a == b {
		t.Errorf("a subtraction lost its operator: %q", a)
	}
	if a, b := shapeOf("B = 2,", []string{"B"}, true), shapeOf("N = 3,", []string{"N"}, true); a == b {
		t.Errorf("keep_numbers: numbers masked in %q", a)
	}
}
