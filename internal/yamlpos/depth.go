package yamlpos

// MaxDepth is the deepest nesting of collections a YAML file may have:
// far deeper than any configuration or relation file, and shallow enough
// that decoding stays cheap (the YAML library's memory grows with the
// square of the depth: 200,000 nested `[` would take gigabytes).
const MaxDepth = 200

// checkDepth returns an error at the first collection of data nested
// deeper than limit, before anything is decoded. It scans the text once,
// in the way of a YAML lexer but no further: it follows quoted scalars,
// comments and block scalars, counts flow collections and the block
// collections that indentation and compact sequences ("- - x") open.
func checkDepth(file string, data []byte, limit int) *Error {
	s := depthScanner{data: data, limit: limit, line: 1, col: 1}
	if pos, ok := s.scan(); !ok {
		return Errorf(Pos{File: file, Line: pos[0], Col: pos[1]}, "collections nested deeper than %d levels", limit)
	}
	return nil
}

type depthScanner struct {
	data  []byte
	limit int
	i     int
	line  int
	col   int // in characters

	flow    int   // open flow collections
	indents []int // indentations of the open block collections
	extra   int   // compact sequences opened on the current line
	quote   byte  // the open quoted scalar's quote, or 0
	// start: at the start of a value, where a collection, a quoted or a
	// block scalar may begin.
	start bool
	// block: inside a block scalar, the indentation of the line that
	// introduced it; -1 outside one.
	block int
}

func (s *depthScanner) depth() int { return max(len(s.indents)-1, 0) + s.extra + s.flow }

// advance moves past the byte at s.i.
func (s *depthScanner) advance() {
	c := s.data[s.i]
	s.i++
	switch {
	case c == '\n':
		s.line++
		s.col = 1
	case c&0xC0 != 0x80: // not a UTF-8 continuation byte
		s.col++
	}
}

// scan returns false and the position of the collection that goes too
// deep, if one does.
func (s *depthScanner) scan() ([2]int, bool) {
	s.block = -1
	for s.i < len(s.data) {
		if s.col == 1 && s.quote == 0 && s.flow == 0 {
			if !s.lineStart() {
				continue
			}
		}
		pos := [2]int{s.line, s.col}
		c := s.data[s.i]
		if s.quote != 0 {
			s.inQuote(c)
			continue
		}
		switch {
		case c == '#' && (s.i == 0 || isSpace(s.data[s.i-1])):
			s.skipLine()
			continue
		case s.start && (c == '\'' || c == '"'):
			s.quote = c
			s.start = false
		case c == '[' || c == '{':
			if s.flow > 0 || s.start {
				s.flow++
				s.start = true
				if s.depth() > s.limit {
					return pos, false
				}
			}
		case c == ']' || c == '}':
			if s.flow > 0 {
				s.flow--
			}
			s.start = false
		case c == ',' && s.flow > 0:
			s.start = true
		case (c == '-' || c == '?') && s.start && s.flow == 0 && s.spaceAfter():
			s.extra++
			if s.depth() > s.limit {
				return pos, false
			}
		case c == ':' && (s.flow > 0 || s.spaceAfter()):
			s.start = true
		case (c == '|' || c == '>') && s.start && s.flow == 0:
			s.block = len(s.indents) - 1
			if s.block >= 0 {
				s.block = s.indents[s.block]
			}
			s.skipLine()
			continue
		case isSpace(c):
		default:
			s.start = false
		}
		s.advance()
	}
	return [2]int{}, true
}

// lineStart handles the indentation of a line in block context: a line of
// a block scalar, a blank or comment line is skipped (false); otherwise the
// block collections the indentation closes are popped, and the line's own
// pushed.
func (s *depthScanner) lineStart() bool {
	indent := 0
	for s.i+indent < len(s.data) && s.data[s.i+indent] == ' ' {
		indent++
	}
	j := s.i + indent
	blank := j >= len(s.data) || s.data[j] == '\n' || s.data[j] == '\r' || s.data[j] == '#'
	if s.block >= 0 {
		if blank || indent > s.block {
			s.skipLine()
			return false
		}
		s.block = -1
	}
	if blank {
		s.skipLine()
		return false
	}
	for len(s.indents) > 0 && s.indents[len(s.indents)-1] >= indent {
		s.indents = s.indents[:len(s.indents)-1]
	}
	s.indents = append(s.indents, indent)
	s.extra = 0
	s.start = true
	for range indent {
		s.advance()
	}
	return true
}

// inQuote moves through a quoted scalar.
func (s *depthScanner) inQuote(c byte) {
	switch {
	case c == '\\' && s.quote == '"' && s.i+1 < len(s.data):
		s.advance()
	case c == s.quote && s.quote == '\'' && s.i+1 < len(s.data) && s.data[s.i+1] == '\'':
		s.advance()
	case c == s.quote:
		s.quote = 0
	}
	s.advance()
}

// skipLine moves to the start of the next line.
func (s *depthScanner) skipLine() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.advance()
	}
	if s.i < len(s.data) {
		s.advance()
	}
}

// spaceAfter tells whether the byte after s.i is a space, a line end or
// the end of the data.
func (s *depthScanner) spaceAfter() bool {
	return s.i+1 >= len(s.data) || isSpace(s.data[s.i+1])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
