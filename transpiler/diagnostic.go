package transpiler

import (
	"path/filepath"
	"slices"
	"strings"
)

// Scratch is the private directory of one run, which is removed by the time
// Transpile returns: the paths a transpiler's messages name there mean
// nothing afterwards, and differ from run to run.
type Scratch struct {
	// Dirs are the spellings of the run directory a transpiler may use in
	// its messages: absolute, and relative to its working directory.
	Dirs []string
	// Input is the input's file name, in the directory's in/.
	Input string
}

// newScratch is the scratch of the run directory work (absolute), for a
// transpiler working in cwd (absolute; empty when unknown).
func newScratch(work, cwd, input string) Scratch {
	s := Scratch{Dirs: []string{work}, Input: input}
	if rel, err := filepath.Rel(cwd, work); cwd != "" && err == nil && rel != "." {
		s.Dirs = append(s.Dirs, rel)
	}
	return s
}

// mask writes the scratch paths in s as the placeholders of a command line:
// the input as {input}, the output directory as {outdir}, the rest of the
// run directory as {workdir}.
func (sc Scratch) mask(s string) string {
	if len(sc.Dirs) == 0 {
		return s
	}
	sep := string(filepath.Separator)
	// At one place of s the replacer tries the pairs in order: the input
	// and the output directory before the run directory that holds them.
	// A relative spelling starts before the absolute one it ends with.
	var pairs []string
	for _, d := range sc.Dirs {
		if sc.Input != "" {
			pairs = append(pairs, d+sep+"in"+sep+sc.Input, PlaceholderInput)
		}
		pairs = append(pairs, d+sep+"out", PlaceholderOutDir, d, PlaceholderWorkDir)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// maxDiagnosticLines bounds the lines of a diagnostic: its first line and
// the lines that go on with it.
const maxDiagnosticLines = 3

// Diagnostic is what a transpiler said about an input in one line: its
// first message, with the scratch paths written as placeholders, so that
// the same complaint about different inputs and runs reads the same. The
// first message starts at the first line that names the input and says
// "error", else the first that names the input, else the first that says
// "error", else the first line that is not blank; it goes on with the
// lines after it that do neither (thrift puts its message on the line
// after the position; tsc indents the details of an error), up to three
// lines, joined with a space. An empty standard error gives "".
func (r *Result) Diagnostic() string {
	var lines []string
	for l := range strings.SplitSeq(string(r.Stderr), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, r.Scratch.mask(l))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	names := func(l string) bool {
		return strings.Contains(l, PlaceholderInput) || r.Scratch.Input != "" && strings.Contains(l, r.Scratch.Input)
	}
	// A line says "error" when it says more than that (flatc's first line
	// is "error:" alone).
	errs := func(l string) bool {
		l = strings.ToLower(l)
		return strings.Contains(l, "error") && strings.Trim(l, "eor: ") != ""
	}
	start := 0
	for _, ok := range []func(string) bool{func(l string) bool { return names(l) && errs(l) }, names, errs} {
		if i := slices.IndexFunc(lines, ok); i >= 0 {
			start = i
			break
		}
	}
	end := start + 1
	for end < len(lines) && end-start < maxDiagnosticLines && !names(lines[end]) && !errs(lines[end]) {
		end++
	}
	return strings.Join(lines[start:end], " ")
}
