package yamlpos

import (
	"fmt"
	"strings"
	"testing"
)

// TestPosAt: the position of a byte of a scalar's value is where it is
// written, in every style of scalar.
func TestPosAt(t *testing.T) {
	src := `a:
  - p: |-
      x {{.a}}
        y {{.b}}
  - q: 'it''s {{.c}}'
  - r: "a\tb\u00e9 {{.d}}"
  - s: >
      one
      two {{.e}}
  - t: plain {{.f}}
      more {{.g}}
  - u: "é \
      {{.h}}"
  - v: |2+ # comment

       {{.i}}
`
	var v struct {
		A []map[string]String `yaml:"a"`
	}
	if err := Decode("f.yaml", []byte(src), &v); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range v.A {
		for k, s := range m {
			for off := 0; ; {
				i := strings.Index(s.Value[off:], "{{")
				if i < 0 {
					break
				}
				off += i
				got = append(got, fmt.Sprintf("%s %s", k, s.PosAt(off)))
				off += 2
			}
		}
	}
	want := []string{
		"p f.yaml:3:9", "p f.yaml:4:11",
		"q f.yaml:5:15",
		"r f.yaml:6:20",
		"s f.yaml:9:11",
		"t f.yaml:10:14", "t f.yaml:11:12",
		"u f.yaml:13:7",
		"v f.yaml:16:8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("positions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := (String{Value: "x {{.y}}", Pos: Pos{File: "g", Line: 2, Col: 3}}).PosAt(2); p.String() != "g:2:3" {
		t.Errorf("a String made in Go: %s, want its start", p)
	}
}
