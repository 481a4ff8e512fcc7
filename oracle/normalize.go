package oracle

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

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
