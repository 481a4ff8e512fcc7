package yamlrel

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

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
