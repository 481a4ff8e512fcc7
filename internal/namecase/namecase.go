// Package namecase writes a declared name in the case forms code
// generators derive from it: snake case and its upper case. It is the one
// definition of those forms, shared by the relations that look for names
// in outputs and by the signatures that group findings.
package namecase

import (
	"strings"
	"unicode"
)

// Snake is the snake case of a name: an underscore goes before an upper-case
// letter preceded by a lower-case letter or a digit, and before an upper-case
// letter followed by a lower-case letter and preceded by an upper-case
// letter; then everything is lower-cased (CameraOn → camera_on, HTTPServer →
// http_server, GrünLicht → grün_licht).
func Snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) {
			p := r[i-1]
			if unicode.IsLower(p) || unicode.IsDigit(p) ||
				(unicode.IsUpper(p) && i+1 < len(r) && unicode.IsLower(r[i+1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// Upper is the upper case of the snake case of a name.
func Upper(s string) string { return strings.ToUpper(Snake(s)) }
