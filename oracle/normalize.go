package oracle

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/tree"
)

// Rule rewrites or drops the lines of output files that carry data the
// relation must not see, such as timestamps or version banners. It is the
// one form of a normalisation rule, from the configuration's normalize
// key through the engine to a bundle's recipe, whose JSON form
// ({"files": […], "match": "…", "replace": "…"}) it is: Match is written
// as its pattern and compiled again when read.
type Rule struct {
	Files   []string       `json:"files,omitempty"` // path.Match patterns; empty means every file
	Match   *regexp.Regexp `json:"match"`
	Replace *string        `json:"replace,omitempty"` // nil drops the line; otherwise the match is replaced (with $1 expansion)
}

// UnmarshalJSON reads a rule of a recipe; a pattern that does not compile
// is an error that names it.
func (r *Rule) UnmarshalJSON(b []byte) error {
	var j struct {
		Files   []string `json:"files"`
		Match   *string  `json:"match"`
		Replace *string  `json:"replace"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Rule{Files: j.Files, Replace: j.Replace}
	if j.Match == nil {
		return nil // Check says so, with the rule's number
	}
	re, err := regexp.Compile(*j.Match)
	if err != nil {
		return fmt.Errorf("normalisation rule %q: %v", *j.Match, err)
	}
	r.Match = re
	return nil
}

// Normalizer applies rules, in order, to every line of every file.
type Normalizer []Rule

// Check says what makes the rules unusable (a rule without a pattern, a
// file pattern path.Match refuses), nil when there is nothing: rules
// decoded from JSON (a recipe) have not been through the configuration's
// checks.
func (n Normalizer) Check() error {
	for i, r := range n {
		if r.Match == nil {
			return fmt.Errorf("normalisation rule %d has no match", i+1)
		}
		for _, f := range r.Files {
			if _, err := path.Match(f, ""); err != nil {
				return fmt.Errorf("normalisation rule %d (%s): bad file pattern %q", i+1, r.Match, f)
			}
		}
	}
	return nil
}

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
				matched, out := r.apply(l)
				if !matched {
					continue
				}
				if r.Replace == nil {
					continue line
				}
				l = out
			}
			kept = append(kept, l)
		}
		out[name] = []byte(JoinLines(kept, nl && len(kept) > 0))
	}
	return out
}

// apply tells whether the rule matches the line l and, if it replaces,
// what it makes of l. What it made of a short line is remembered (see
// lineMemo): the outputs of a campaign share nearly all their lines (a
// follow-up's output is its base's with one declaration more, and every
// run of a seed writes the same), and a pattern tried on every line of
// every output was most of what mcpt itself spent on a test case of a
// pack with a rule on its large files.
func (r Rule) apply(l string) (bool, string) {
	if len(l) > maxMemoLine {
		return r.eval(l)
	}
	k := memoKey{re: r.Match, line: l}
	if r.Replace != nil {
		k.replace, k.replaces = *r.Replace, true
	}
	memo.Lock()
	v, ok := memo.m[k]
	memo.Unlock()
	if ok {
		return v.matched, v.out
	}
	v.matched, v.out = r.eval(l)
	k.line = strings.Clone(l) // not the whole file l is a part of
	if v.out == l {
		v.out = k.line
	}
	memo.Lock()
	if memo.bytes += len(k.line) + len(v.out) + memoEntry; memo.bytes > maxMemoBytes || memo.m == nil {
		memo.m, memo.bytes = map[memoKey]memoResult{}, len(k.line)+len(v.out)+memoEntry
	}
	memo.m[k] = v
	memo.Unlock()
	return v.matched, v.out
}

// eval is apply without the memo.
func (r Rule) eval(l string) (bool, string) {
	if !r.Match.MatchString(l) {
		return false, l
	}
	if r.Replace == nil {
		return true, l
	}
	return true, r.Match.ReplaceAllString(l, *r.Replace)
}

// The memo of what rules made of lines: a line of at most maxMemoLine
// bytes, under a rule's compiled pattern and replacement, and what the
// rule made of it. It holds at most about maxMemoBytes (memoEntry counts
// an entry's own bytes) and starts afresh when full, so that a campaign's
// memory stays bounded however many lines its outputs have.
const (
	maxMemoLine = 512
	memoEntry   = 128
)

// maxMemoBytes is a variable for the tests alone.
var maxMemoBytes = 16 << 20

type memoKey struct {
	re       *regexp.Regexp
	replace  string
	replaces bool
	line     string
}

type memoResult struct {
	matched bool
	out     string
}

var memo struct {
	sync.Mutex
	m     map[memoKey]memoResult
	bytes int
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
