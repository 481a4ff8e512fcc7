// Command faulty is the Thrift compiler with a bug injected: it runs the
// real generators (the wrapper given as its first argument) and then
// rewrites the C++ output the way a generator that forgot to sort the
// fields by id would write it: each struct's write() serialises the fields
// in declaration order (the order of the cases of its read()) instead of
// field-id order. On the example seeds, whose ids ascend in declaration
// order, the output is unchanged; a field added in the middle of a struct
// with the next free id shows the bug, and mcpt's add-field relations
// predict exactly that field's block last in write().
//
// With -fault=process-order it injects another bug instead: the Python
// processor registers its methods sorted by name instead of in declaration
// order. Services whose methods come in alphabetical order show nothing;
// a method added after one that sorts after it does, and the exact
// add-service-method relations (relations/ and gorel/) predict its line
// right after its predecessor's.
//
// Usage: faulty [-fault=field-order|process-order] [WRAPPER] INPUT OUTDIR
//
// With a WRAPPER (gen.sh) it runs that and then rewrites its output. Without
// one it runs thrift itself, as gen.sh does (thrift, or $THRIFT, with the
// include directory beside gen.sh, its working directory), for C++ into
// OUTDIR/cpp and for Python into OUTDIR/py: the same output, without the
// shell and mkdir processes of gen.sh, so that applying the fault costs
// about what they cost and a faulty campaign spends no more on running the
// compiler than a correct one. It rewrites only the files the fault
// changes.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "faulty:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fault := "field-order"
	if len(args) > 0 && strings.HasPrefix(args[0], "-fault=") {
		fault, args = strings.TrimPrefix(args[0], "-fault="), args[1:]
	}
	if len(args) != 2 && len(args) != 3 || fault != "field-order" && fault != "process-order" {
		return fmt.Errorf("usage: faulty [-fault=field-order|process-order] [WRAPPER] INPUT OUTDIR")
	}
	out := args[len(args)-1]
	if len(args) == 3 {
		if err := run1(args[0], args[1], args[2]); err != nil {
			return err
		}
	} else if err := thrift(args[0], out); err != nil {
		return err
	}
	if fault == "process-order" {
		var files []string
		err := filepath.WalkDir(filepath.Join(out, "py"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return err
		}
		return rewrite(files, sortedProcessors)
	}
	files, err := filepath.Glob(filepath.Join(out, "cpp", "*_types.cpp"))
	if err != nil {
		return err
	}
	return rewrite(files, declarationOrder)
}

// thrift runs what gen.sh runs: the compiler for C++ and for Python, with
// the include directory beside gen.sh (the working directory).
func thrift(input, out string) error {
	bin := os.Getenv("THRIFT")
	if bin == "" {
		bin = "thrift"
	}
	for _, gen := range []string{"cpp", "py"} {
		if err := os.MkdirAll(filepath.Join(out, gen), 0o755); err != nil {
			return err
		}
	}
	for _, gen := range []string{"cpp", "py"} {
		if err := run1(bin, "-I", "include", "--gen", gen, "-out", filepath.Join(out, gen), input); err != nil {
			return err
		}
	}
	return nil
}

// run1 runs a command with faulty's standard output and error; when it
// fails, faulty exits with its status (a rejection stays a rejection).
func run1(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 {
			os.Exit(ee.ExitCode())
		}
		return err
	}
	return nil
}

// rewrite replaces the content of each file by what fix makes of it.
func rewrite(files []string, fix func(string) string) error {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if fixed := fix(string(b)); fixed != string(b) {
			if err := os.WriteFile(f, []byte(fixed), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

var processRE = regexp.MustCompile(`^        self\._processMap\["\w+"\] = Processor\.process_\w+\n$`)

// sortedProcessors sorts the lines of the Python processor's map of
// methods by name: each run of such lines. The lines are matched one by
// one, after a test of their start, not the file by a pattern that
// starts at every line: that took milliseconds a file, more than the
// compiler's own run.
func sortedProcessors(src string) string {
	lines := strings.SplitAfter(src, "\n")
	isProc := func(l string) bool {
		return strings.HasPrefix(l, "        self._processMap[") && processRE.MatchString(l)
	}
	for i := 0; i < len(lines); {
		if !isProc(lines[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(lines) && isProc(lines[j]) {
			j++
		}
		slices.Sort(lines[i:j])
		i = j
	}
	return strings.Join(lines, "")
}

var (
	readRE  = regexp.MustCompile(`^uint32_t (\w+)::read\(`)
	caseRE  = regexp.MustCompile(`^      case (-?\d+):$`)
	writeRE = regexp.MustCompile(`^uint32_t (\w+)::write\(.*\{$`)
	idRE    = regexp.MustCompile(`writeFieldBegin\("\w+", [:\w]+, (-?\d+)\);`)
)

// declarationOrder reorders the field blocks of every write() function by
// the order in which the struct's read() lists the field ids. Lines are
// matched one by one, after a test of their start (see sortedProcessors).
func declarationOrder(src string) string {
	lines := strings.Split(src, "\n")
	order := map[string][]string{} // struct → ids in declaration order
	for i, l := range lines {
		m := matchLine(readRE, "uint32_t ", l)
		if m == nil {
			continue
		}
		// The cases of read() up to its closing line.
		for _, b := range lines[i+1:] {
			if b == "}" {
				break
			}
			if c := matchLine(caseRE, "      case ", b); c != nil {
				order[m[1]] = append(order[m[1]], c[1])
			}
		}
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		m := matchLine(writeRE, "uint32_t ", lines[i])
		if m == nil {
			continue
		}
		// The blocks run from after the writeStructBegin line and its blank
		// line to the writeFieldStop line.
		j := i + 1
		for j < len(lines) && !strings.Contains(lines[j], "writeStructBegin(") {
			out = append(out, lines[j])
			j++
		}
		if j+1 >= len(lines) {
			continue
		}
		out = append(out, lines[j], lines[j+1])
		k := j + 2
		blocks := map[string][]string{}
		var ids []string
		var cur []string
		for ; k < len(lines) && !strings.Contains(lines[k], "writeFieldStop()"); k++ {
			// A block starts at its writeFieldBegin, or at the if that
			// guards an optional field (whose lines are indented further).
			if strings.HasPrefix(lines[k], "  if (this->__isset.") || strings.HasPrefix(lines[k], "  xfer += oprot->writeFieldBegin(") {
				if len(cur) > 0 {
					id := blockID(cur)
					blocks[id], ids = cur, append(ids, id)
				}
				cur = nil
			}
			cur = append(cur, lines[k])
		}
		if len(cur) > 0 {
			id := blockID(cur)
			blocks[id], ids = cur, append(ids, id)
		}
		seen := map[string]bool{}
		for _, id := range order[m[1]] {
			if b, ok := blocks[id]; ok && !seen[id] {
				out = append(out, b...)
				seen[id] = true
			}
		}
		for _, id := range ids { // fields the reader does not list, if any
			if !seen[id] {
				out = append(out, blocks[id]...)
			}
		}
		i = k - 1
	}
	return strings.Join(out, "\n")
}

func blockID(block []string) string {
	for _, l := range block {
		if m := idRE.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	return ""
}

// matchLine matches re against a line that starts with prefix, the
// literal start of re.
func matchLine(re *regexp.Regexp, prefix, line string) []string {
	if !strings.HasPrefix(line, prefix) {
		return nil
	}
	return re.FindStringSubmatch(line)
}
