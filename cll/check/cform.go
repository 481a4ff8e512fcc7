package check

import "strings"

// CForm returns the C form of a CLL name (docs/cll.md, Names and their C
// forms): its snake case. An
// underscore goes before an upper-case letter preceded by a lower-case
// letter or a digit, and before an upper-case letter preceded by an
// upper-case letter and followed by a lower-case one; then the whole name is
// lower-cased: CameraOn → camera_on, HTTPServer → http_server.
func CForm(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isUpper(c) && i > 0 {
			prev := name[i-1]
			if isLower(prev) || isDigit(prev) ||
				isUpper(prev) && i+1 < len(name) && isLower(name[i+1]) {
				b.WriteByte('_')
			}
		}
		if isUpper(c) {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// UpperCForm returns U(name) of docs/cll.md: the upper case of the C form.
func UpperCForm(name string) string { return strings.ToUpper(CForm(name)) }

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
