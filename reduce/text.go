package reduce

import "strings"

// splitLines cuts src into lines, each with its line terminator; the last
// line may lack one.
func splitLines(src string) []string {
	var lines []string
	for len(src) > 0 {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, src)
			break
		}
		lines = append(lines, src[:i+1])
		src = src[i+1:]
	}
	return lines
}

// CountLines is the number of lines of a program, a last line without a
// terminator included.
func CountLines(src []byte) int { return len(splitLines(string(src))) }

// token is a white-space separated word of a program. The token pass keeps
// each token on its line, so that the line structure the line pass left
// stays.
type token struct {
	line int    // index of its line
	sep  string // the white space before it on its line
	text string
}

// tokenized is a program cut into tokens, with what surrounds them.
type tokenized struct {
	indent []string // per line: the white space before its first token
	trail  []string // per line: what follows its last token (terminator included)
	blank  []string // per line: the whole line when it has no token, else ""
	tokens []token
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// tokenize cuts src into tokens; joining all of them gives src back.
func tokenize(src string) *tokenized {
	t := &tokenized{}
	for li, l := range splitLines(src) {
		body := strings.TrimRight(l, "\n")
		end := len(body)
		for end > 0 && isSpace(body[end-1]) {
			end--
		}
		t.trail = append(t.trail, l[end:])
		if end == 0 {
			t.indent = append(t.indent, "")
			t.blank = append(t.blank, l)
			continue
		}
		t.blank = append(t.blank, "")
		for i, first := 0, true; i < end; first = false {
			j := i
			for j < end && isSpace(body[j]) {
				j++
			}
			k := j
			for k < end && !isSpace(body[k]) {
				k++
			}
			if first {
				t.indent = append(t.indent, body[i:j])
				t.tokens = append(t.tokens, token{line: li, text: body[j:k]})
			} else {
				t.tokens = append(t.tokens, token{line: li, sep: body[i:j], text: body[j:k]})
			}
			i = k
		}
	}
	return t
}

// join rebuilds the program from a subsequence of t's tokens: each line
// keeps its indentation and terminator, its kept tokens their separators;
// a line whose tokens are all left out is left out, a line that never had
// a token stays.
func (t *tokenized) join(kept []token) string {
	var b strings.Builder
	k := 0
	for li := range t.blank {
		if t.blank[li] != "" {
			b.WriteString(t.blank[li])
			continue
		}
		if k == len(kept) || kept[k].line != li {
			continue
		}
		b.WriteString(t.indent[li])
		b.WriteString(kept[k].text)
		for k++; k < len(kept) && kept[k].line == li; k++ {
			b.WriteString(kept[k].sep)
			b.WriteString(kept[k].text)
		}
		b.WriteString(t.trail[li])
	}
	return b.String()
}
