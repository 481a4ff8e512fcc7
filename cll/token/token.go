// Package token defines the lexical tokens of CLL and the source positions
// that every later stage of the front end reports errors against.
package token

import "fmt"

// Pos is a position in a CLL source: a file name, a 1-based line and a
// 1-based column counted in characters (a tab counts as one), plus the byte
// offset from the start of the file.
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether the position is set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col.
func (p Pos) String() string {
	f := p.File
	if f == "" {
		f = "<input>"
	}
	if !p.IsValid() {
		return f
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// Error is a positioned error of the CLL front end.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of positioned errors in source order.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil when the list is empty, and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Kind is the kind of a lexical token.
type Kind int

// The token kinds. Keywords and type names are named after their spelling.
const (
	ILLEGAL Kind = iota // a character that starts no token
	EOF

	IDENT     // TrafficLight
	INTLIT    // 42
	REALLIT   // 4.2
	STRINGLIT // "text", quotes included in the token text

	COMMA  // ,
	COLON  // :
	LBRACE // {
	RBRACE // }
	LPAREN // (
	RPAREN // )
	EQ     // =
	NEQ    // <>
	LSS    // <
	LEQ    // <=
	GTR    // >
	GEQ    // >=
	ADD    // +
	SUB    // -
	MUL    // *
	QUO    // /

	keywordBeg
	LOGIC
	DECLARATIONS
	STATES
	ENUMERATION
	COMMAND
	CONFIGURATION
	PARAMETER
	VARIABLE
	TIMER
	INPUT
	EVENT
	ATTRIBUTE
	INIT
	CYCLE
	IF
	THEN
	ELIF
	ELSE
	END
	SEND
	TRANSITION
	TO
	NEXT
	PREVIOUS
	SET
	START
	STOP
	FOR
	EXPIRED
	AND
	OR
	NOT
	MOD
	TRUE
	FALSE
	STATE
	TIME
	keywordEnd

	typeBeg
	BOOLEAN
	INTEGER
	REAL
	STRING
	typeEnd
)

var kindText = [...]string{
	ILLEGAL:   "illegal character",
	EOF:       "end of file",
	IDENT:     "identifier",
	INTLIT:    "integer literal",
	REALLIT:   "real literal",
	STRINGLIT: "string literal",

	COMMA:  ",",
	COLON:  ":",
	LBRACE: "{",
	RBRACE: "}",
	LPAREN: "(",
	RPAREN: ")",
	EQ:     "=",
	NEQ:    "<>",
	LSS:    "<",
	LEQ:    "<=",
	GTR:    ">",
	GEQ:    ">=",
	ADD:    "+",
	SUB:    "-",
	MUL:    "*",
	QUO:    "/",

	LOGIC:         "logic",
	DECLARATIONS:  "declarations",
	STATES:        "states",
	ENUMERATION:   "enumeration",
	COMMAND:       "command",
	CONFIGURATION: "configuration",
	PARAMETER:     "parameter",
	VARIABLE:      "variable",
	TIMER:         "timer",
	INPUT:         "input",
	EVENT:         "event",
	ATTRIBUTE:     "attribute",
	INIT:          "init",
	CYCLE:         "cycle",
	IF:            "if",
	THEN:          "then",
	ELIF:          "elif",
	ELSE:          "else",
	END:           "end",
	SEND:          "send",
	TRANSITION:    "transition",
	TO:            "to",
	NEXT:          "next",
	PREVIOUS:      "previous",
	SET:           "set",
	START:         "start",
	STOP:          "stop",
	FOR:           "for",
	EXPIRED:       "expired",
	AND:           "and",
	OR:            "or",
	NOT:           "not",
	MOD:           "mod",
	TRUE:          "true",
	FALSE:         "false",
	STATE:         "state",
	TIME:          "time",

	BOOLEAN: "Boolean",
	INTEGER: "Integer",
	REAL:    "Real",
	STRING:  "String",
}

// String returns the spelling of an operator, keyword or type name, and a
// description of the other kinds ("identifier", "end of file").
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindText) && kindText[k] != "" {
		return kindText[k]
	}
	return fmt.Sprintf("token(%d)", int(k))
}

// IsKeyword reports whether k is a reserved lowercase keyword.
func (k Kind) IsKeyword() bool { return keywordBeg < k && k < keywordEnd }

// IsTypeName reports whether k is one of the reserved type names Boolean,
// Integer, Real and String.
func (k Kind) IsTypeName() bool { return typeBeg < k && k < typeEnd }

// IsOperator reports whether k is an operator or punctuation.
func (k Kind) IsOperator() bool { return COMMA <= k && k <= QUO }

// reserved maps every keyword and type name to its kind.
var reserved = func() map[string]Kind {
	m := make(map[string]Kind)
	for k := keywordBeg + 1; k < typeEnd; k++ {
		if k != keywordEnd && k != typeBeg {
			m[kindText[k]] = k
		}
	}
	return m
}()

// Lookup returns the kind of a word: its keyword or type-name kind when it
// is reserved, IDENT otherwise.
func Lookup(word string) Kind {
	if k, ok := reserved[word]; ok {
		return k
	}
	return IDENT
}

// LookupBytes is Lookup for a word still in the source, without copying it.
func LookupBytes(word []byte) Kind {
	if k, ok := reserved[string(word)]; ok {
		return k
	}
	return IDENT
}

// MaxIdentLen is the length limit of an identifier, in characters.
const MaxIdentLen = 64
