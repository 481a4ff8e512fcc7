package transpiler

import "testing"

func TestDiagnostic(t *testing.T) {
	sc := Scratch{Dirs: []string{"/tmp/mcpt-12-x/mcpt-run-34", "../../tmp/mcpt-12-x/mcpt-run-34"}, Input: "orders.ts"}
	for _, tc := range []struct {
		name, stderr string
		scratch      Scratch
		want         string
	}{
		{"tsc, absolute", "/tmp/mcpt-12-x/mcpt-run-34/in/orders.ts(12,3): error TS1005: ';' expected.\n", sc,
			"{input}(12,3): error TS1005: ';' expected."},
		{"tsc, relative, first of two", "../../tmp/mcpt-12-x/mcpt-run-34/in/orders.ts(12,3): error TS1005: ';' expected.\n" +
			"../../tmp/mcpt-12-x/mcpt-run-34/in/orders.ts(13,1): error TS1128: Declaration or statement expected.\n", sc,
			"{input}(12,3): error TS1005: ';' expected."},
		{"tsc, details go on", "/tmp/mcpt-12-x/mcpt-run-34/in/orders.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
			"  The expected type comes from property 'id'.\n", sc,
			"{input}(4,7): error TS2322: Type 'string' is not assignable to type 'number'. The expected type comes from property 'id'."},
		{"thrift, message on the next line", "[WARNING:/tmp/mcpt-12-x/mcpt-run-34/in/orders.ts:2] deprecated\n" +
			"[ERROR:/tmp/mcpt-12-x/mcpt-run-34/in/orders.ts:4] (last token was '}')\n\"1: b\" - field identifier/name has already been used\n", sc,
			"[ERROR:{input}:4] (last token was '}') \"1: b\" - field identifier/name has already been used"},
		{"flatc, a bare first line", "error:\n  /tmp/mcpt-12-x/mcpt-run-34/in/orders.ts:2: 25: error: field already exists: a\n", sc,
			"{input}:2: 25: error: field already exists: a"},
		{"output and run directories", "cannot write /tmp/mcpt-12-x/mcpt-run-34/out/a.js (in /tmp/mcpt-12-x/mcpt-run-34)\n", sc,
			"cannot write {outdir}/a.js (in {workdir})"},
		{"no scratch", "\n\nx.cll:1:1: expected logic\n", Scratch{}, "x.cll:1:1: expected logic"},
		{"nothing said", "\n  \n", sc, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Result{Stderr: []byte(tc.stderr), Scratch: tc.scratch}
			if got := r.Diagnostic(); got != tc.want {
				t.Errorf("Diagnostic() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNewScratch: the relative spelling is the one from the transpiler's
// working directory; none when it is unknown.
func TestNewScratch(t *testing.T) {
	s := newScratch("/tmp/t/mcpt-run-1", "/work/pack", "a.ts")
	if len(s.Dirs) != 2 || s.Dirs[1] != "../../tmp/t/mcpt-run-1" || s.Input != "a.ts" {
		t.Errorf("newScratch = %+v", s)
	}
	if s := newScratch("/tmp/t/mcpt-run-1", "", "a.ts"); len(s.Dirs) != 1 {
		t.Errorf("newScratch without a working directory = %+v", s)
	}
}
