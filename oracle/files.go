package oracle

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/tree"
)

// A file name of a check may be a pattern, so that a relation finds the
// files a transpiler wrote in the output tree instead of computing their
// names from the input's (a generator that names a directory after a
// namespace, or writes it in another case): `*` stands for any run of
// characters but `/`, `**/` for any directories, none included. Other
// characters stand for themselves.

// IsPattern reports whether a file name of a check is a pattern.
func IsPattern(name string) bool { return strings.Contains(name, "*") }

var patterns sync.Map // pattern → *regexp.Regexp

func patternRE(pattern string) *regexp.Regexp {
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	var b strings.Builder
	b.WriteString("^")
	for rest := pattern; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "**/"):
			b.WriteString("(?:[^/]+/)*")
			rest = rest[3:]
		case rest[0] == '*':
			b.WriteString("[^/]*")
			rest = rest[1:]
		default:
			i := strings.IndexByte(rest, '*')
			if i < 0 {
				i = len(rest)
			}
			b.WriteString(regexp.QuoteMeta(rest[:i]))
			rest = rest[i:]
		}
	}
	b.WriteString("$")
	re := regexp.MustCompile(b.String())
	patterns.Store(pattern, re)
	return re
}

// MatchFile reports whether file is name, or matches it when name is a
// pattern.
func MatchFile(name, file string) bool {
	if !IsPattern(name) {
		return name == file
	}
	return patternRE(name).MatchString(file)
}

// FindFile is the file of t that name stands for: name itself, or the one
// file of t that the pattern name matches (an error when none or several
// do).
func FindFile(name string, t tree.Tree) (string, error) {
	if !IsPattern(name) {
		return name, nil
	}
	var found []string
	for _, f := range t.Names() {
		if MatchFile(name, f) {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("no file of o matches %s", name)
	}
	return "", fmt.Errorf("%d files of o match %s (%s): the pattern must name one", len(found), name, strings.Join(found, ", "))
}
