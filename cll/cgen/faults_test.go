package cgen_test

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/cgen"
)

// TestFaultsChangeExamples pins which example outputs each seeded fault
// changes: every fault changes some, none changes the traffic light but
// the paper's own, and none touches the default output (the golden test).
func TestFaultsChangeExamples(t *testing.T) {
	want := map[string][]string{
		"attr-escape":        {"level_crossing", "pump_station"},
		"count-off-by-one":   {"car_wash", "elevator"},
		"drop-last-getter":   {"boiler", "pump_station"},
		"params-grouped":     {"boiler", "car_wash", "conveyor", "greenhouse", "pump_station"},
		"reset-enum-by-name": {"boiler", "car_wash", "elevator", "greenhouse"},
		"reverse-enums":      {"boiler", "car_wash", "conveyor", "elevator", "greenhouse", "level_crossing", "pump_station", "traffic"},
		"skip-second-tick":   {"boiler", "car_wash", "conveyor", "elevator", "greenhouse", "level_crossing", "pump_station"},
		"skip-third-clear":   {"car_wash", "conveyor", "elevator", "greenhouse", "level_crossing"},
		"sorted-resets":      {"boiler", "car_wash", "conveyor", "elevator", "greenhouse", "level_crossing", "pump_station"},
	}
	exs := examples(t)
	defaults := map[string]map[string][]byte{}
	for _, ex := range exs {
		defaults[ex.name] = generate(t, ex.name, ex.src)
	}
	for _, f := range cgen.Faults() {
		var changed []string
		for _, ex := range exs {
			out := generate(t, ex.name, ex.src, f.Name)
			for n, b := range defaults[ex.name] {
				if !bytes.Equal(out[n], b) {
					changed = append(changed, ex.name)
					break
				}
			}
		}
		sort.Strings(changed)
		if len(changed) == 0 {
			t.Errorf("fault %s changes no example", f.Name)
		}
		if !slices.Equal(changed, want[f.Name]) {
			t.Errorf("fault %s changes %v, want %v", f.Name, changed, want[f.Name])
		}
	}
}

// edit is one predicted change of a file between the base output and the
// follow-up output: text inserted right after anchor (which must occur
// exactly once), or, with replace set, anchor replaced by text.
type edit struct {
	file    string // without the prefix: "_types.h", ".c", …
	anchor  string
	text    string
	replace bool
}

// faultCase is a miniature metamorphic relation (like those of
// examples/cll/relations): a base program,
// a follow-up with one declaration inserted (or one value, for MR10), and
// the edits the layout of docs/cll.md predicts between their outputs; every other
// file must stay identical.
type faultCase struct {
	fault    string
	relation string
	base     string
	from, to string // the follow-up is base with from replaced by to
	edits    []edit
}

// program wraps declarations and cycle statements into a whole program.
func program(decls, cycle, config string) string {
	return "logic Zq\n\ndeclarations\n  states Idle, Busy\n" + decls +
		"\ninit\n\ncycle\n" + cycle + "\nconfiguration\n" + config + "  cycle time 1 s\n"
}

var faultCases = []faultCase{{
	fault:    "reverse-enums",
	relation: "MR10: a state between the first two",
	base:     program("", "", ""),
	from:     "states Idle, Busy", to: "states Idle, Zqalpha, Busy",
	edits: []edit{
		{file: "_types.h", anchor: "    ZQ_STATE_IDLE,\n", text: "    ZQ_STATE_ZQALPHA,\n"},
		{file: "_types.h", anchor: "#define ZQ_STATE_COUNT 2\n", text: "#define ZQ_STATE_COUNT 3\n", replace: true},
		{file: "_types.c", anchor: "    \"Idle\",\n", text: "    \"Zqalpha\",\n"},
	},
}, {
	fault:    "drop-last-getter",
	relation: "MR1: a fourth parameter at the end",
	base:     program("  configuration parameter A : Boolean\n  configuration parameter B : Integer\n  configuration parameter C : Boolean\n", "", ""),
	from:     "  configuration parameter C : Boolean\n",
	to:       "  configuration parameter C : Boolean\n  configuration parameter Zqalpha : Boolean\n",
	edits: []edit{
		{file: "_config.h", anchor: "    bool c;\n", text: "    bool zqalpha;\n"},
		{file: "_config.h", anchor: "bool zq_config_c(void);\n", text: "bool zq_config_zqalpha(void);\n"},
		{file: "_config.c", anchor: "    .c = false,\n", text: "    .zqalpha = false,\n"},
		{file: "_config.c", anchor: "    return zq_config.c;\n}\n", text: "\nbool zq_config_zqalpha(void)\n{\n    return zq_config.zqalpha;\n}\n"},
	},
}, {
	fault:    "sorted-resets",
	relation: "MR4: a Boolean variable at the start",
	base:     program("  variable Level : Integer\n", "", ""),
	from:     "  states Idle, Busy\n",
	to:       "  variable Zqalpha : Boolean\n  states Idle, Busy\n",
	edits: []edit{
		{file: ".h", anchor: "    bool transition_pending;\n", text: "    bool v_zqalpha;\n"},
		{file: ".c", anchor: "    ctx->transition_pending = false;\n    ctx->v_level = 0;\n", text: "    ctx->transition_pending = false;\n    ctx->v_zqalpha = false;\n    ctx->v_level = 0;\n", replace: true},
	},
}, {
	fault:    "count-off-by-one",
	relation: "MR10: a fifth value at the end of an enumeration",
	base:     program("  enumeration Mode { A, B, C, D }\n", "", ""),
	from:     "{ A, B, C, D }", to: "{ A, B, C, D, Zqalpha }",
	edits: []edit{
		{file: "_types.h", anchor: "    ZQ_MODE_D,\n", text: "    ZQ_MODE_ZQALPHA,\n"},
		{file: "_types.h", anchor: "#define ZQ_MODE_COUNT 4\n", text: "#define ZQ_MODE_COUNT 5\n", replace: true},
		{file: "_types.c", anchor: "    \"D\",\n", text: "    \"Zqalpha\",\n"},
	},
}, {
	fault:    "skip-second-tick",
	relation: "MR7: a timer before the only one",
	base:     program("  timer Guard\n", "", ""),
	from:     "  timer Guard\n",
	to:       "  timer Zqalpha\n  timer Guard\n",
	edits: []edit{
		{file: ".h", anchor: "    bool transition_pending;\n", text: "    zq_timer_t t_zqalpha;\n"},
		{file: ".c", anchor: "    ctx->transition_pending = false;\n    ctx->t_guard.active", text: "    ctx->transition_pending = false;\n    ctx->t_zqalpha.active = false;\n    ctx->t_zqalpha.remaining_ms = 0;\n    ctx->t_guard.active", replace: true},
		{file: ".c", anchor: "    }\n    if (ctx->t_guard", text: "    }\n    if (ctx->t_zqalpha.active && ctx->t_zqalpha.remaining_ms > 0) { ctx->t_zqalpha.remaining_ms -= ZQ_CYCLE_TIME_MS; }\n    if (ctx->t_guard", replace: true},
	},
}, {
	fault:    "skip-third-clear",
	relation: "MR8: a third input event at the end",
	base:     program("  input event Go\n  input event Halt\n", "", ""),
	from:     "  input event Halt\n",
	to:       "  input event Halt\n  input event Zqalpha\n",
	edits: []edit{
		{file: ".h", anchor: "    bool e_halt;\n", text: "    bool e_zqalpha;\n"},
		{file: ".h", anchor: "void zq_raise_halt(zq_ctx_t *ctx);\n", text: "void zq_raise_zqalpha(zq_ctx_t *ctx);\n"},
		{file: ".c", anchor: "    ctx->e_halt = false;\n}\n", text: "    ctx->e_halt = false;\n    ctx->e_zqalpha = false;\n}\n", replace: true},
		{file: ".c", anchor: "    ctx->e_halt = false;\n    if (ctx->transition_pending)", text: "    ctx->e_halt = false;\n    ctx->e_zqalpha = false;\n    if (ctx->transition_pending)", replace: true},
		{file: ".c", anchor: "    ctx->e_halt = true;\n}\n", text: "\nvoid zq_raise_zqalpha(zq_ctx_t *ctx)\n{\n    ctx->e_zqalpha = true;\n}\n"},
	},
}, {
	fault:    "reset-enum-by-name",
	relation: "MR10: a value before the first of an enumeration",
	base:     program("  enumeration Mode { Manual, Automatic }\n  variable Current : Mode\n", "", ""),
	from:     "{ Manual, Automatic }", to: "{ Zqalpha, Manual, Automatic }",
	edits: []edit{
		{file: "_types.h", anchor: "typedef enum {\n    ZQ_MODE_MANUAL,\n", text: "typedef enum {\n    ZQ_MODE_ZQALPHA,\n    ZQ_MODE_MANUAL,\n", replace: true},
		{file: "_types.h", anchor: "#define ZQ_MODE_COUNT 2\n", text: "#define ZQ_MODE_COUNT 3\n", replace: true},
		{file: "_types.c", anchor: "zq_mode_names[] = {\n", text: "    \"Zqalpha\",\n"},
	},
}, {
	fault:    "attr-escape",
	relation: "MR9: a String attribute with a tab escape",
	base:     program("  attribute Label : String = \"plain\"\n", "", ""),
	from:     "  attribute Label : String = \"plain\"\n",
	to:       "  attribute Label : String = \"plain\"\n  attribute Zqalpha : String = \"a\\tb\"\n",
	edits: []edit{
		{file: "_attrs.h", anchor: "#define ZQ_ATTR_LABEL \"plain\"\n", text: "#define ZQ_ATTR_ZQALPHA \"a\\tb\"\n"},
	},
}, {
	fault:    "params-grouped",
	relation: "MR1: a Boolean parameter between two Integer ones",
	base:     program("  configuration parameter Low : Integer\n  configuration parameter High : Integer\n", "", ""),
	from:     "  configuration parameter High : Integer\n",
	to:       "  configuration parameter Zqalpha : Boolean\n  configuration parameter High : Integer\n",
	edits: []edit{
		{file: "_config.h", anchor: "    int32_t low;\n", text: "    bool zqalpha;\n"},
		{file: "_config.h", anchor: "int32_t zq_config_low(void);\n", text: "bool zq_config_zqalpha(void);\n"},
		{file: "_config.c", anchor: "    .low = 0,\n", text: "    .zqalpha = false,\n"},
		{file: "_config.c", anchor: "    return zq_config.low;\n}\n", text: "\nbool zq_config_zqalpha(void)\n{\n    return zq_config.zqalpha;\n}\n"},
	},
}}

// predict applies the edits of c to the base output, failing the test
// when an anchor does not occur exactly once.
func (c faultCase) predict(t *testing.T, base map[string][]byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for n, b := range base {
		out[n] = b
	}
	for _, e := range c.edits {
		n := "zq" + e.file
		s := string(out[n])
		if k := strings.Count(s, e.anchor); k != 1 {
			t.Fatalf("%s: anchor %q occurs %d times in the base %s", c.fault, e.anchor, k, n)
		}
		if e.replace {
			s = strings.Replace(s, e.anchor, e.text, 1)
		} else {
			s = strings.Replace(s, e.anchor, e.anchor+e.text, 1)
		}
		out[n] = []byte(s)
	}
	return out
}

// mismatches lists the files where got differs from the prediction.
func mismatches(predicted, got map[string][]byte) []string {
	var bad []string
	for n, b := range predicted {
		if !bytes.Equal(got[n], b) {
			bad = append(bad, n)
		}
	}
	sort.Strings(bad)
	return bad
}

// TestFaultsBreakRelations shows, for each seeded fault, one insertion of
// a declaration (a metamorphic relation) whose predicted output
// the reference output meets and the faulty output misses.
func TestFaultsBreakRelations(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range faultCases {
		covered[c.fault] = true
		t.Run(c.fault, func(t *testing.T) {
			follow := strings.Replace(c.base, c.from, c.to, 1)
			if follow == c.base {
				t.Fatalf("%q does not occur in the base program", c.from)
			}
			for _, fault := range []string{"", c.fault} {
				var faults []string
				if fault != "" {
					faults = []string{fault}
				}
				base := generate(t, "base", []byte(c.base), faults...)
				got := generate(t, "follow-up", []byte(follow), faults...)
				bad := mismatches(c.predict(t, base), got)
				switch {
				case fault == "" && len(bad) > 0:
					t.Errorf("%s: the reference output breaks the prediction in %v:\n%s", c.relation, bad, showFiles(got, bad))
				case fault != "" && len(bad) == 0:
					t.Errorf("%s: fault %s goes unnoticed", c.relation, fault)
				}
			}
		})
	}
	for _, f := range cgen.Faults() {
		if !covered[f.Name] {
			t.Errorf("fault %s has no case", f.Name)
		}
	}
}

func showFiles(files map[string][]byte, names []string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "--- %s\n%s", n, files[n])
	}
	return b.String()
}
