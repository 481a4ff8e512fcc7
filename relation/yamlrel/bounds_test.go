package yamlrel

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// TestTemplateBounds: a template that would loop for ever, or make a value
// or an output without bound, ends in an error at its position.
func TestTemplateBounds(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"integer range", `{{range $i := 1000000000000}}{{end}}`,
			"r.yaml:3:7: range over 1000000000000: over the 1000000 steps (loop iterations and template calls) a template may take"},
		{"range bound from a function", `{{range $i := mul 1000000 1000000}}x{{end}}`,
			"r.yaml:3:7: range over 1000000000000: over the 1000000 steps (loop iterations and template calls) a template may take"},
		{"nested ranges", `{{range $i := 1000}}{{range $j := 1000}}{{range $k := 1000}}{{end}}{{end}}{{end}}`,
			"r.yaml:3:7: " + errSteps.Error()},
		{"nested ranges over a list", `{{$l := split (repeat "x" 1000) ""}}{{range $l}}{{range $l}}{{range $i, $x := $l}}{{end}}{{end}}{{end}}`,
			"r.yaml:3:7: " + errSteps.Error()},
		{"template calls", `{{define "a"}}{{template "b" .}}{{template "b" .}}{{end}}{{define "b"}}{{template "c" .}}{{template "c" .}}{{end}}` +
			`{{define "c"}}{{range 400}}{{end}}{{end}}{{range 1000}}{{template "a" .}}{{end}}`,
			"r.yaml:3:7: range over 400: over the 1000000 steps"},
		{"huge repeat", `{{repeat "x" 1099511627776}}`,
			"r.yaml:3:7: repeat: 1099511627776 times 1 bytes is over the 16 MiB a template value may take"},
		{"doubling", `{{$x := "xx"}}{{range 40}}{{$x = printf "%s%s" $x $x}}{{end}}`,
			"r.yaml:3:7: printf: the result would take 33554432 bytes, over the 16 MiB a template value may take"},
		{"output", `{{range 100}}{{repeat "x" 1000000}}{{end}}`,
			"r.yaml:3:7: " + errOutput.Error()},
		{"resub", `{{resub "" "$0$0$0$0" (repeat "x" 10000000)}}`,
			"r.yaml:3:7: resub: the result would take 50000008 bytes"},
	}
	for _, tc := range tests {
		tm, err := mkTmpl(yamlpos.String{Value: tc.src, Pos: yamlpos.Pos{File: "r.yaml", Line: 3, Col: 7}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = tm.render(context.Background(), map[string]any{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestTemplateContext: a template stops when its context is done, at its
// next step, with the context's error; the instance it ran on serves the
// next evaluation as if nothing happened.
func TestTemplateContext(t *testing.T) {
	tm, err := mkTmpl(yamlpos.String{Value: `{{range 999999}}{{$x := repeat "x" 1000}}{{end}}ok`, Pos: yamlpos.Pos{File: "r.yaml", Line: 3, Col: 7}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tm.render(ctx, map[string]any{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	data := map[string]any{"stop": func() string { cancel(); return "" }}
	stopping, err := mkTmpl(yamlpos.String{Value: `{{range 999999}}{{call $.stop}}{{end}}`, Pos: yamlpos.Pos{File: "r.yaml", Line: 3, Col: 7}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stopping.render(ctx, data); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while it runs: %v, want context.Canceled", err)
	}
	if s, err := tm.render(context.Background(), map[string]any{}); err != nil || s != "ok" {
		t.Errorf("after: %q, %v", s, err)
	}
}

// TestTemplateRangeSemantics: bounded ranges iterate as text/template's
// do: over elements, indices and elements, sorted map keys, an integer,
// with else, break and continue; and template calls keep their data.
func TestTemplateRangeSemantics(t *testing.T) {
	data := map[string]any{
		"l": []string{"a", "b", "c"},
		"m": map[string]any{"y": 2, "x": 1},
		"e": []string{},
		"i": []map[string]any{{"name": "p"}, {"name": "q"}},
	}
	tests := map[string]string{
		`{{range .l}}{{.}}{{end}}`:                                         "abc",
		`{{range $x := .l}}{{$x}}{{end}}`:                                  "abc",
		`{{range $i, $x := .l}}{{$i}}{{$x}}{{end}}`:                        "0a1b2c",
		`{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}`:                      "x=1;y=2;",
		`{{range .m}}{{.}}{{end}}`:                                         "12",
		`{{range 3}}{{.}}{{end}}`:                                          "012",
		`{{range .e}}x{{else}}empty{{end}}`:                                "empty",
		`{{range .l}}{{if eq . "b"}}{{continue}}{{end}}{{.}}{{end}}`:       "ac",
		`{{range .l}}{{if eq . "b"}}{{break}}{{end}}{{.}}{{end}}`:          "a",
		`{{range .i}}{{.name}}{{end}}`:                                     "pq",
		`{{define "t"}}<{{.}}>{{end}}{{template "t" "z"}}{{template "t"}}`: "<z><<no value>>",
	}
	for src, want := range tests {
		tm, err := mkTmpl(yamlpos.String{Value: src, Pos: yamlpos.Pos{File: "r.yaml", Line: 1, Col: 1}})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := tm.render(context.Background(), data)
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", src, got, err, want)
		}
	}
}
