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

// Mixed are the forms that keep a name's words as written and change the
// case of its first letter only (setDisplay_name, a Java getter of
// display_name); they are looked for only where a check or a
// configuration names them.
var Mixed = []string{"upperfirst", "lowerfirst"}

// Names lists every form a configuration or a check may name: Forms, then
// Mixed.
func Names() []string { return append(append([]string{}, Forms...), Mixed...) }

var forms = map[string]func(string) string{
	"upperfirst": UpperFirst,
	"lowerfirst": LowerFirst,
	"written":    func(s string) string { return s },
	"snake":      Snake,
	"upper":      Upper,
	"lower":      strings.ToLower,
	"caps":       strings.ToUpper,
	"camel":      Camel,
	"pascal":     Pascal,
	"kebab":      Kebab,
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

// UpperFirst upper-cases the first letter of s (display_name →
// Display_name).
func UpperFirst(s string) string {
	for i, c := range s {
		return string(unicode.ToUpper(c)) + s[i+len(string(c)):]
	}
	return s
}

// LowerFirst lower-cases the first letter of s.
func LowerFirst(s string) string {
	for i, c := range s {
		return string(unicode.ToLower(c)) + s[i+len(string(c)):]
	}
	return s
}

// Like writes the fresh name fresh as name is written: in as many words,
// each in the case of name's (upper, capitalised, lower), with name's
// separators, digits and other characters between them. The first word is
// the whole of fresh, the others are made of its letters, so that every
// form of the result holds a form of fresh: display_name and zqabcdef give
// zqabcdef_cdef, setDisplay_name gives zqabcdefCdef_defg, HTTPServer
// gives ZQABCDEFCdef. A name without letters gives fresh.
func Like(name, fresh string) string {
	letters := []rune(strings.ToLower(fresh))
	var b strings.Builder
	r := []rune(name)
	word := 0
	for i := 0; i < len(r); {
		if !unicode.IsLetter(r[i]) {
			b.WriteRune(r[i])
			i++
			continue
		}
		j := i + 1
		for j < len(r) && unicode.IsLetter(r[j]) && !wordStart(r, j) {
			j++
		}
		b.WriteString(likeWord(r[i:j], letters, word))
		word++
		i = j
	}
	if word == 0 {
		return fresh
	}
	return b.String()
}

// wordStart reports whether a new word starts at r[j], a letter after a
// letter: an upper-case letter after a lower-case one (camelCase), or an
// upper-case one between an upper-case and a lower-case one (HTTPServer).
func wordStart(r []rune, j int) bool {
	if !unicode.IsUpper(r[j]) {
		return false
	}
	return unicode.IsLower(r[j-1]) || unicode.IsUpper(r[j-1]) && j+1 < len(r) && unicode.IsLower(r[j+1])
}

// likeWord is the k-th word of a name written like w: the fresh letters
// for the first, four of them after its first two for the others.
func likeWord(w, fresh []rune, k int) string {
	var out []rune
	if k == 0 || len(fresh) <= 2 {
		out = append(out, fresh...)
	} else {
		rest := fresh[2:]
		for i := range 4 {
			out = append(out, rest[(k+i)%len(rest)])
		}
	}
	switch {
	case len(w) > 1 && !strings.ContainsFunc(string(w), unicode.IsLower):
		return strings.ToUpper(string(out))
	case unicode.IsUpper(w[0]):
		return string(unicode.ToUpper(out[0])) + string(out[1:])
	}
	return string(out)
}
