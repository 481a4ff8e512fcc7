package yamlrel

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

func TestListFuncs(t *testing.T) {
	items := []map[string]any{
		{"name": "A", "value": ""}, {"name": "B", "value": "5"}, {"name": "C", "value": ""}, {"name": "D", "value": "0x10"},
	}
	vals, err := reader{}.numbering("value", 0, items)
	if err != nil || !slices.Equal(vals, []int{0, 5, 6, 16}) {
		t.Errorf("numbering %v %v", vals, err)
	}
	lead, _ := until("value", ".", items[2:])
	if len(lead) != 1 || lead[0]["name"] != "C" {
		t.Errorf("until %v", lead)
	}
	sel, _ := filter("value", ".", items, true)
	names, _ := pluck("name", sel)
	if !slices.Equal(names, []string{"B", "D"}) {
		t.Errorf("select %v", names)
	}
	if m, _ := (reader{}).extreme([]string{"3", "", "12", "-4"}, nil, func(a, b int) bool { return a > b }); m != 12 {
		t.Errorf("maxint %d", m)
	}
	if _, err := (reader{}).extreme([]string{}, nil, func(a, b int) bool { return a > b }); err == nil {
		t.Error("maxint of nothing without a default")
	}
	if got := alt([]string{"a.b", "c"}); got != `(?:a\.b|c)` {
		t.Errorf("alt %q", got)
	}
	if got := alt(nil); regexpMatches(got, "") || regexpMatches(got, "x") {
		t.Errorf("alt of nothing matches: %q", got)
	}
	joined, err := concat(items[:1], []any{map[string]any{"name": "N", "value": ""}}, items[1:2])
	if list, ok := joined.([]map[string]any); err != nil || !ok || len(list) != 3 || list[1]["name"] != "N" {
		t.Errorf("concat %v %v", joined, err)
	}
	if namecase.Pascal("max_speed") != "MaxSpeed" || namecase.Camel("max_speed") != "maxSpeed" {
		t.Error("pascal / camel")
	}
	for s, want := range map[string]bool{"": false, " 0 ": false, "false": false, "[]": false, "map[]": false, "yes": true, "[x]": true} {
		if truthy(s) != want {
			t.Errorf("truthy(%q) = %v", s, !want)
		}
	}
}

// TestSortAndIndex: numeric sort, sort by key, index-of, through templates
// as a relation writes them.
func TestSortAndIndex(t *testing.T) {
	items := []map[string]any{{"name": "a", "id": "10"}, {"name": "b", "id": "9"}, {"name": "c", "id": "-1"}}
	for src, want := range map[string]string{
		`{{sortints (strings "10" "9" "-1")}}`:         "[-1 9 10]",
		`{{pluck "name" (sortby "id" .items)}}`:        "[c b a]",
		`{{pluck "name" (sortby "name" .items)}}`:      "[a b c]",
		`{{indexof (pluck "name" .items) "b"}}`:        "1",
		`{{indexof (pluck "name" .items) "z"}}`:        "-1",
		`{{last (pluck "name" (sortby "id" .items))}}`: "a",
		`{{index (sortints (pluck "id" .items)) 0}}`:   "-1",
		`{{indexof (sortints (pluck "id" .items)) 9}}`: "1",
	} {
		tm, err := mkTmpl(yamlpos.String{Value: src})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.render(context.Background(), map[string]any{"items": items})
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", src, got, err, want)
		}
	}
}

func regexpMatches(re, s string) bool {
	rx, err := cachedRE(re)
	return err == nil && rx.MatchString(s)
}
