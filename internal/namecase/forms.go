package namecase

import (
	"strings"
	"unicode"
)

// Forms lists the case forms by the names configurations and relations
// give them, in the order in which the forms of two names correspond.
var Forms = []string{"written", "snake", "upper", "lower", "caps", "camel", "pascal", "kebab"}

// DefaultForms are the forms a name is looked for in when nothing says
// otherwise: as written, snake case and upper snake case, the forms C
// generators such as cllc use.
var DefaultForms = []string{"written", "snake", "upper"}

var forms = map[string]func(string) string{
	"written": func(s string) string { return s },
	"snake":   Snake,
	"upper":   Upper,
	"lower":   strings.ToLower,
	"caps":    strings.ToUpper,
	"camel":   Camel,
	"pascal":  Pascal,
	"kebab":   Kebab,
}

// Form returns the function that writes a name in the form called form,
// or false when there is no such form.
func Form(form string) (func(string) string, bool) {
	f, ok := forms[form]
	return f, ok
}

// Pascal is a name with the letter after each underscore or hyphen, and the
// first, upper-cased, and the underscores and hyphens dropped
// (max_count → MaxCount).
func Pascal(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		if c == '_' || c == '-' {
			up = true
			continue
		}
		if up {
			b.WriteRune(unicode.ToUpper(c))
			up = false
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Camel is Pascal with its first letter lower-cased (max_count → maxCount).
func Camel(s string) string { return LowerFirst(Pascal(s)) }

// Kebab is the snake case with hyphens (CameraOn → camera-on).
func Kebab(s string) string { return strings.ReplaceAll(Snake(s), "_", "-") }

// LowerFirst lower-cases the first letter of s.
func LowerFirst(s string) string {
	for i, c := range s {
		return string(unicode.ToLower(c)) + s[i+len(string(c)):]
	}
	return s
}
