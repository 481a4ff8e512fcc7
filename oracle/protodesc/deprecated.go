package protodesc

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// Deprecated is the check of the deprecation protoc-gen-go (and
// protoc-gen-go-grpc) writes for an added element: every Go declaration
// users call or implement for it carries a "Deprecated:" comment (a line
// of its doc comment, or a comment after it on its line) exactly when the
// element is deprecated, since that comment is what go doc, editors and
// linters warn with. The declarations, by element:
//
//   - a field: its getter (GetF), in a oneof too;
//   - an enum value: its constant;
//   - a message: its type;
//   - an rpc: its method in the client and server interfaces and the
//     client's implementation (the Go of a gRPC service: protoc-gen-go-grpc,
//     or github.com/golang/protobuf's plugins=grpc).
//
// An element with none of its declarations in File is a failure: the
// relation names the file that must hold them.
type Deprecated struct {
	// Name names the check in findings.
	Name string
	// File is the Go file (its path in the output tree).
	File string
	// What is the kind of the element, Element its name as the .proto
	// declares it.
	What    Added
	Element string
	// Is says whether the element is deprecated.
	Is bool
}

// Check runs the check on o′.
func (c *Deprecated) Check(o, o2 tree.Tree) []oracle.Failure {
	name := c.Name
	if name == "" {
		name = "go-deprecated"
	}
	fail := func(msg string, act []string) []oracle.Failure {
		return []oracle.Failure{{Checker: name, File: c.File, Message: c.File + " in o′: " + msg, Actual: strings.Join(act, "\n")}}
	}
	src, ok := o2[c.File]
	if !ok {
		return fail("missing", nil)
	}
	lines := strings.Split(string(src), "\n")
	decls := c.declarations(lines)
	if len(decls) == 0 {
		return fail(fmt.Sprintf("no Go declaration of %s", c.Element), nil)
	}
	var wrong []string
	for _, at := range decls {
		if deprecatedAt(lines, at) != c.Is {
			wrong = append(wrong, strings.TrimSpace(lines[at]))
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	if c.Is {
		return fail(fmt.Sprintf("%s is deprecated, but %d of the %d declarations of it have no Deprecated: comment", c.Element, len(wrong), len(decls)), wrong)
	}
	return fail(fmt.Sprintf("%s is not deprecated, but %d of the %d declarations of it have a Deprecated: comment", c.Element, len(wrong), len(decls)), wrong)
}

// declarations are the lines that declare the element's Go.
func (c *Deprecated) declarations(lines []string) []int {
	goName := GoCamelCase(c.Element)
	var res []*regexp.Regexp
	switch c.What {
	case Field:
		res = append(res, regexp.MustCompile(`^func \(\w+ \*\w+\) Get`+regexp.QuoteMeta(goName)+`\(\) `))
	case EnumValue:
		res = append(res, regexp.MustCompile(`^\t\w+_`+regexp.QuoteMeta(c.Element)+` +\w+ += -?\d+`))
	case Message:
		res = append(res, regexp.MustCompile(`^type (\w+_)?`+regexp.QuoteMeta(goName)+` struct \{$`))
	case Method:
		res = append(res,
			regexp.MustCompile(`^\t`+regexp.QuoteMeta(goName)+`\(`),                        // in an interface
			regexp.MustCompile(`^func \(\w+ \*\w+Client\) `+regexp.QuoteMeta(goName)+`\(`)) // the client's
	}
	var out []int
	for i, l := range lines {
		for _, re := range res {
			if re.MatchString(l) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// deprecatedAt says whether the declaration at line i has a Deprecated:
// comment: a line of the comment just above it, or after it on its line.
func deprecatedAt(lines []string, i int) bool {
	if _, after, ok := strings.Cut(lines[i], "// "); ok && strings.HasPrefix(after, "Deprecated:") {
		return true
	}
	for j := i - 1; j >= 0; j-- {
		l := strings.TrimSpace(lines[j])
		if !strings.HasPrefix(l, "//") {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "//")), "Deprecated:") {
			return true
		}
	}
	return false
}

// GRPCNames is the check of the names the Go of a gRPC service uses for
// an added rpc: every method path ("/pkg.Service/Method", the name a call
// is sent, routed and reported to interceptors with) and every
// MethodName or StreamName of the service's description that o′ has and
// o has not ends with the rpc's name as the .proto declares it, not its Go
// name, and there is at least one.
type GRPCNames struct {
	// Name names the check in findings.
	Name string
	// File is the Go file (its path in the output tree).
	File string
	// Method is the rpc's name as the .proto declares it.
	Method string
}

var (
	methodPathRE = regexp.MustCompile(`"/[\w.]+/(\w+)"`)
	descNameRE   = regexp.MustCompile(`\b(?:MethodName|StreamName):\s*"(\w+)"`)
)

// Check compares the names o′ adds with the rpc's.
func (c *GRPCNames) Check(o, o2 tree.Tree) []oracle.Failure {
	name := c.Name
	if name == "" {
		name = "grpc-names"
	}
	src, ok := o2[c.File]
	if !ok {
		return []oracle.Failure{{Checker: name, File: c.File, Message: c.File + " is missing in o′"}}
	}
	added := func(re *regexp.Regexp) []string {
		count := map[string]int{}
		for _, m := range re.FindAllStringSubmatch(string(o[c.File]), -1) {
			count[m[0]]++
		}
		var out []string
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			if count[m[0]] > 0 {
				count[m[0]]--
				continue
			}
			out = append(out, m[0])
		}
		return out
	}
	paths, names := added(methodPathRE), added(descNameRE)
	if len(paths) == 0 {
		return []oracle.Failure{{Checker: name, File: c.File, Message: fmt.Sprintf("%s in o′: no method path of %s (\"/package.Service/%s\")", c.File, c.Method, c.Method)}}
	}
	var wrong []string
	for _, p := range paths {
		if methodPathRE.FindStringSubmatch(p)[1] != c.Method {
			wrong = append(wrong, p)
		}
	}
	for _, n := range names {
		if descNameRE.FindStringSubmatch(n)[1] != c.Method {
			wrong = append(wrong, n)
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return []oracle.Failure{{
		Checker:  name,
		File:     c.File,
		Message:  fmt.Sprintf("%s in o′: the rpc %s is named otherwise in %s", c.File, c.Method, strings.Join(wrong, ", ")),
		Expected: c.Method,
		Actual:   strings.Join(wrong, "\n"),
	}}
}
