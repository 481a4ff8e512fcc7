package protodesc

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// A value is what a Go expression of a .pb.go file evaluates to, as far
// as the defaults of fields need: a number, a string or bytes, a bool, an
// enum value (by name, by number or both), or nil.
type value struct {
	kind   valueKind
	i      *big.Int
	f      float64
	s      string // a string, bytes, or the Go name of an enum constant
	b      bool
	enumOK bool // i holds the enum's number
}

type valueKind int

const (
	vNil valueKind = iota
	vInt
	vFloat
	vString
	vBytes
	vBool
	vEnum
)

func (v value) String() string {
	switch v.kind {
	case vInt:
		return v.i.String()
	case vFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case vString:
		return strconv.Quote(v.s)
	case vBytes:
		return "[]byte(" + strconv.Quote(v.s) + ")"
	case vBool:
		return strconv.FormatBool(v.b)
	case vEnum:
		switch {
		case v.s != "" && v.enumOK:
			return fmt.Sprintf("%s (%s)", v.s, v.i)
		case v.s != "":
			return v.s
		default:
			return "the enum number " + v.i.String()
		}
	}
	return "nil"
}

// goFile is the source of a .pb.go file, with what evaluating its
// expressions looks up: declarations of defaults and enum constants.
type goFile struct {
	lines []string
}

// defaultDeclRE is a declaration of a field's default: in a const or var
// block (`Default_M_F = int32(5)`) or alone (`const Default_M_F int32 =
// 5`, github.com/golang/protobuf's own generator).
func defaultDeclRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:const |var )?` + regexp.QuoteMeta(name) + `(?: ([\w.\[\]]+))? += (.+)$`)
}

// enumConstRE is the declaration of an enum constant in a const block.
func enumConstRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\t` + regexp.QuoteMeta(name) + ` +\w+ += (-?\d+)`)
}

// eval evaluates a Go expression of the file: literals, conversions,
// math.Inf and math.NaN, the Default_ constants and variables, enum
// constants of the file and of other packages, conversions of numbers to
// enum types, and append([]byte(nil), x...).
func (g *goFile) eval(src string, depth int) (value, error) {
	if depth > 4 {
		return value{}, fmt.Errorf("%s: nested too deep", src)
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return value{}, fmt.Errorf("%q is no Go expression: %v", src, err)
	}
	return g.evalExpr(e, depth)
}

func (g *goFile) evalExpr(e ast.Expr, depth int) (value, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.evalExpr(e.X, depth)
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT, token.FLOAT:
			return numberValue(constant.MakeFromLiteral(e.Value, e.Kind, 0))
		case token.STRING:
			s, err := strconv.Unquote(e.Value)
			if err != nil {
				return value{}, err
			}
			return value{kind: vString, s: s}, nil
		}
	case *ast.UnaryExpr:
		v, err := g.evalExpr(e.X, depth)
		if err != nil {
			return v, err
		}
		switch {
		case e.Op == token.ADD && (v.kind == vInt || v.kind == vFloat):
			return v, nil
		case e.Op == token.SUB && v.kind == vInt:
			return value{kind: vInt, i: new(big.Int).Neg(v.i)}, nil
		case e.Op == token.SUB && v.kind == vFloat:
			return value{kind: vFloat, f: -v.f}, nil
		}
	case *ast.Ident:
		switch e.Name {
		case "true", "false":
			return value{kind: vBool, b: e.Name == "true"}, nil
		case "nil":
			return value{kind: vNil}, nil
		}
		if strings.HasPrefix(e.Name, "Default_") {
			return g.lookupDefault(e.Name, depth)
		}
		return g.enumConst(e.Name)
	case *ast.SelectorExpr:
		// A constant of another package: an enum value by name.
		if _, ok := e.X.(*ast.Ident); ok {
			return value{kind: vEnum, s: e.Sel.Name}, nil
		}
	case *ast.CallExpr:
		return g.evalCall(e, depth)
	}
	return value{}, fmt.Errorf("cannot evaluate %s", exprString(e))
}

func (g *goFile) evalCall(e *ast.CallExpr, depth int) (value, error) {
	fun := exprString(e.Fun)
	switch {
	case fun == "math.Inf" && len(e.Args) == 1:
		v, err := g.evalExpr(e.Args[0], depth)
		if err != nil || v.kind != vInt {
			return value{}, fmt.Errorf("math.Inf of %s", exprString(e.Args[0]))
		}
		return value{kind: vFloat, f: math.Inf(v.i.Sign())}, nil
	case fun == "math.NaN" && len(e.Args) == 0:
		return value{kind: vFloat, f: math.NaN()}, nil
	case fun == "append" && len(e.Args) == 2 && e.Ellipsis.IsValid() && exprString(e.Args[0]) == "[]byte(nil)":
		return g.evalExpr(e.Args[1], depth)
	}
	if len(e.Args) != 1 {
		return value{}, fmt.Errorf("cannot evaluate %s", exprString(e))
	}
	v, err := g.evalExpr(e.Args[0], depth)
	if err != nil {
		return v, err
	}
	switch fun {
	case "int32", "int64", "uint32", "uint64":
		if v.kind == vInt {
			return v, nil
		}
	case "float64":
		if v.kind == vInt {
			f, _ := new(big.Float).SetInt(v.i).Float64()
			return value{kind: vFloat, f: f}, nil
		}
		if v.kind == vFloat {
			return v, nil
		}
	case "float32":
		if v.kind == vInt {
			f, _ := new(big.Float).SetInt(v.i).Float32()
			return value{kind: vFloat, f: float64(f)}, nil
		}
		if v.kind == vFloat {
			return value{kind: vFloat, f: float64(float32(v.f))}, nil
		}
	case "string", "bool":
		if v.kind == vString && fun == "string" || v.kind == vBool && fun == "bool" {
			return v, nil
		}
	case "[]byte":
		if v.kind == vString || v.kind == vBytes {
			return value{kind: vBytes, s: v.s}, nil
		}
	default:
		// A conversion to an enum type, of this package or another.
		if v.kind == vInt {
			return value{kind: vEnum, i: v.i, enumOK: true}, nil
		}
		if v.kind == vEnum {
			return v, nil
		}
	}
	return value{}, fmt.Errorf("cannot evaluate %s", exprString(e))
}

// numberValue is a constant as an integer or a float.
func numberValue(c constant.Value) (value, error) {
	switch c.Kind() {
	case constant.Int:
		i, ok := new(big.Int).SetString(c.ExactString(), 10)
		if !ok {
			return value{}, fmt.Errorf("%s is no integer", c.ExactString())
		}
		return value{kind: vInt, i: i}, nil
	case constant.Float:
		f, _ := constant.Float64Val(c)
		return value{kind: vFloat, f: f}, nil
	}
	return value{}, fmt.Errorf("%s is no number", c.ExactString())
}

// lookupDefault evaluates the declaration of a Default_ constant or
// variable of the file.
func (g *goFile) lookupDefault(name string, depth int) (value, error) {
	re := defaultDeclRE(name)
	var found []string
	for _, l := range g.lines {
		if m := re.FindStringSubmatch(l); m != nil {
			if m[1] != "" {
				// A declaration with a type converts its value to it.
				m[2] = m[1] + "(" + m[2] + ")"
			}
			found = append(found, m[2])
		}
	}
	if len(found) != 1 {
		return value{}, fmt.Errorf("%d declarations of %s", len(found), name)
	}
	return g.eval(found[0], depth+1)
}

// enumConst is an enum constant of the file, with its number.
func (g *goFile) enumConst(name string) (value, error) {
	re := enumConstRE(name)
	for _, l := range g.lines {
		if m := re.FindStringSubmatch(l); m != nil {
			n, _ := new(big.Int).SetString(m[1], 10)
			return value{kind: vEnum, s: name, i: n, enumOK: true}, nil
		}
	}
	return value{}, fmt.Errorf("no constant %s", name)
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt)
		}
	case *ast.CallExpr:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = exprString(a)
		}
		return exprString(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *ast.BasicLit:
		return e.Value
	case *ast.UnaryExpr:
		return e.Op.String() + exprString(e.X)
	case *ast.ParenExpr:
		return "(" + exprString(e.X) + ")"
	}
	return fmt.Sprintf("%T", e)
}

// unescapeC reads a bytes default as descriptor.proto keeps it: C
// escapes (\n, \", \\, octal \NNN, hex \xHH) for every byte that needs
// one.
func unescapeC(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", fmt.Errorf("%q ends in a backslash", s)
		}
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'x', 'X':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				return "", fmt.Errorf("%q: \\x without digits", s)
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			if c < '0' || c > '7' {
				return "", fmt.Errorf("%q: unknown escape \\%c", s, c)
			}
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		}
	}
	return b.String(), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// GoCamelCase is the Go name protoc-gen-go gives a field or a message
// of the .proto name s: each word starts upper case, an underscore before
// a lower case letter goes, a leading underscore is X.
func GoCamelCase(s string) string {
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && i+1 < len(s) && lower(s[i+1]):
		case c == '.':
			b = append(b, '_')
		case c == '_' && (i == 0 || s[i-1] == '.'):
			b = append(b, 'X')
		case c == '_' && i+1 < len(s) && lower(s[i+1]):
		case c >= '0' && c <= '9':
			b = append(b, c)
		default:
			if lower(c) {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			for i+1 < len(s) && lower(s[i+1]) {
				i++
				b = append(b, s[i])
			}
		}
	}
	return string(b)
}
