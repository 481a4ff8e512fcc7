package yamlrel

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// quoteSource is the first line of a YAML example of docs/relations.md:
// the file of the repository it is quoted from.
var quoteSource = regexp.MustCompile(`^# (\S+)$`)

// lineModel matches a line of YAML that uses the line model: a region's
// from or to pattern, a whole region, the skip of a file.
var lineModel = regexp.MustCompile(`(^\s*|[{,]\s*)(from|to): '|\bwhole: true|^skip:`)

// docExample is a ```yaml block of a doc: its first line and its lines
// after that, without the indentation of the fence.
type docExample struct {
	line   int // of the fence
	source string
	body   []string
}

// yamlExamples finds the ```yaml blocks of doc.
func yamlExamples(doc string) (out []docExample, errs []string) {
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimLeft(lines[i], " ")
		if fence != "```yaml" {
			continue
		}
		indent := len(lines[i]) - len(fence)
		ex := docExample{line: i + 1}
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			l := lines[j]
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			ex.body = append(ex.body, l)
		}
		if j == len(lines) {
			errs = append(errs, "an unclosed ```yaml block at line "+strconv.Itoa(i+1))
			break
		}
		i = j
		if len(ex.body) > 0 {
			if m := quoteSource.FindStringSubmatch(ex.body[0]); m != nil {
				ex.source, ex.body = m[1], ex.body[1:]
			}
		}
		out = append(out, ex)
	}
	return out, errs
}

// quoted reports whether body is a quote of text: its runs of lines
// between elisions (a line "…" or "# …") are runs of lines of text, in
// order, each with the same indentation added to all its lines.
func quoted(body []string, text string) bool {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var chunks [][]string
	var cur []string
	for _, l := range body {
		if t := strings.TrimSpace(l); t == "…" || t == "# …" {
			if len(cur) > 0 {
				chunks = append(chunks, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	if len(chunks) == 0 {
		return false
	}
	from := 0
	for _, c := range chunks {
		at := findChunk(lines, from, c)
		if at < 0 {
			return false
		}
		from = at + len(c)
	}
	return true
}

// findChunk is the first line at or after from where chunk starts in
// lines, indented by the same spaces throughout, or -1.
func findChunk(lines []string, from int, chunk []string) int {
	minIndent := -1
	for _, l := range chunk {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " ")); minIndent < 0 || n < minIndent {
			minIndent = n
		}
	}
	if minIndent < 0 {
		return -1
	}
next:
	for i := from; i+len(chunk) <= len(lines); i++ {
		// the indentation the file adds, read at the first non-blank line
		var pad string
		for k, l := range chunk {
			if strings.TrimSpace(l) == "" {
				continue
			}
			fl := lines[i+k]
			if !strings.HasSuffix(fl, l[minIndent:]) {
				continue next
			}
			pad = fl[:len(fl)-len(l[minIndent:])]
			break
		}
		if strings.TrimSpace(pad) != "" {
			continue
		}
		for k, l := range chunk {
			fl := lines[i+k]
			if strings.TrimSpace(l) == "" {
				if strings.TrimSpace(fl) != "" {
					continue next
				}
				continue
			}
			if fl != pad+l[minIndent:] {
				continue next
			}
		}
		return i
	}
	return -1
}

// TestDocExamples: every YAML example of docs/relations.md is quoted from
// a file of the repository that its first line names (# PATH), as the
// file holds it (lines left out marked with a line "# …"), so that an
// example cannot teach what no shipped file does.
func TestDocExamples(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "docs", "relations.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples, errs := yamlExamples(string(b))
	for _, e := range errs {
		t.Error("docs/relations.md: " + e)
	}
	if len(examples) < 20 {
		t.Fatalf("docs/relations.md: %d YAML examples, fewer than the 20 it has", len(examples))
	}
	appendix := strings.Index(string(b), "\n"+appendixHeading+"\n")
	if appendix < 0 {
		t.Fatalf("docs/relations.md has no section %s", appendixHeading)
	}
	appendixLine := strings.Count(string(b)[:appendix], "\n") + 2
	for _, ex := range examples {
		if ex.line < appendixLine {
			for _, l := range ex.body {
				if lineModel.MatchString(l) {
					t.Errorf("docs/relations.md:%d: an example before the appendix on inputs read as text teaches the line model: %s", ex.line, strings.TrimSpace(l))
				}
			}
		}
		if strings.HasPrefix(ex.source, "docs/") {
			t.Errorf("docs/relations.md:%d: an example quoted from a doc, %s, not from a file mcpt reads", ex.line, ex.source)
			continue
		}
		if ex.source == "" {
			t.Errorf("docs/relations.md:%d: a YAML example whose first line names no file it is quoted from (# PATH)", ex.line)
			continue
		}
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ex.source)))
		if err != nil {
			t.Errorf("docs/relations.md:%d: %v", ex.line, err)
			continue
		}
		if !quoted(ex.body, string(text)) {
			t.Errorf("docs/relations.md:%d: the example is not a quote of %s", ex.line, ex.source)
		}
	}
}

// TestQuoted: the matching of quotes, on its own.
func TestQuoted(t *testing.T) {
	text := "a:\n  b: 1\n\n  c: 2\nd: 3\n  e: 4\n"
	for _, c := range []struct {
		body []string
		want bool
	}{
		{[]string{"a:", "  b: 1"}, true},
		{[]string{"b: 1", "", "c: 2"}, true},    // indentation removed alike
		{[]string{"b: 1", "c: 2"}, false},       // a blank line left out
		{[]string{"b: 1", "# …", "e: 4"}, true}, // an elision
		{[]string{"e: 4", "# …", "b: 1"}, false},
		{[]string{"b: 1", "  c: 2"}, false},
		{[]string{"a:", "b: 1"}, false}, // indentation changed within
		{[]string{"x: 1"}, false},
		{nil, false},
	} {
		if got := quoted(c.body, text); got != c.want {
			t.Errorf("quoted(%q) = %v, want %v", c.body, got, c.want)
		}
	}
}

// TestLineModelPattern: what the doc test takes for the line model.
func TestLineModelPattern(t *testing.T) {
	for l, want := range map[string]bool{
		"  struct: {from: '^struct (?P<name>\\w+) \\{$', to: '^\\}'}": true,
		"    from: '^init'":           true,
		"  file: {whole: true}":       true,
		"skip: '^\\s*(#.*)?$'":        true,
		"    clone: {from: before}":   false,
		"    node: [enum_body]":       false,
		"        - after: ['struct']": false,
	} {
		if got := lineModel.MatchString(l); got != want {
			t.Errorf("lineModel.MatchString(%q) = %v, want %v", l, got, want)
		}
	}
}
