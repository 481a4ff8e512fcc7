package oracle

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcpt-tool/mcpt/tree"
)

// Rule rewrites or drops the lines of output files that carry data the
// relation must not see, such as timestamps or version banners.
type Rule struct {
	Files   []string // path.Match patterns; empty means every file
	Match   *regexp.Regexp
	Replace *string // nil drops the line; otherwise the match is replaced (with $1 expansion)
}

// Normalizer applies rules, in order, to every line of every file.
type Normalizer []Rule

// Apply returns a normalised copy of t; t itself is not changed. With no
// rules it returns t.
func (n Normalizer) Apply(t tree.Tree) tree.Tree {
	if len(n) == 0 {
		return t
	}
	out := make(tree.Tree, len(t))
	for name, b := range t {
		var rules []Rule
		for _, r := range n {
			if r.applies(name) {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 {
			out[name] = b
			continue
		}
		lines, nl := SplitLines(string(b))
		kept := lines[:0:0]
	line:
		for _, l := range lines {
			for _, r := range rules {
				if !r.Match.MatchString(l) {
					continue
				}
				if r.Replace == nil {
					continue line
				}
				l = r.Match.ReplaceAllString(l, *r.Replace)
			}
			kept = append(kept, l)
		}
		out[name] = []byte(JoinLines(kept, nl && len(kept) > 0))
	}
	return out
}

func (r Rule) applies(name string) bool {
	if len(r.Files) == 0 {
		return true
	}
	for _, p := range r.Files {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
		if ok, _ := path.Match(p, path.Base(name)); ok && !strings.Contains(p, "/") {
			return true
		}
	}
	return false
}
