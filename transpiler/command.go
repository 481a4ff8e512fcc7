package transpiler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// Defaults applied by NewCommand to the zero fields of a Command.
const (
	DefaultTimeout        = time.Minute
	DefaultWaitDelay      = time.Second
	DefaultMaxOutputFiles = 10_000
	DefaultMaxOutputBytes = 64 << 20
	DefaultMaxStderrBytes = 8 << 10
	DefaultInputName      = "input"
)

// Placeholders that may appear inside the arguments of Command.Argv. Each
// occurrence is replaced by its value for the run; the rest of the argument
// is kept as written, so "--out={outdir}" works.
const (
	PlaceholderInput     = "{input}"     // absolute path of the input file
	PlaceholderInputName = "{inputname}" // base name of the input file
	PlaceholderOutDir    = "{outdir}"    // absolute path of a fresh, empty output directory
	PlaceholderWorkDir   = "{workdir}"   // absolute path of the run's private directory
	// PlaceholderFlags, an argument of its own, stands for the arguments
	// of the run's flags (Request.Flags): none, one or several.
	PlaceholderFlags = spec.PlaceholderFlags
)

var knownPlaceholders = []string{PlaceholderInput, PlaceholderInputName, PlaceholderOutDir, PlaceholderWorkDir, PlaceholderFlags}

// placeholderRx matches anything that looks like a placeholder, known or not,
// so that a misspelt one is reported instead of reaching the transpiler.
var placeholderRx = regexp.MustCompile(`\{[a-z_]+\}`)

// Command describes a transpiler run as an external command. Each run gets a
// private directory holding in/<name> (the input) and out/ (where the
// transpiler must write its output tree); the directory is removed when the
// run ends, however it ends. Standard input is empty.
//
// The transpiler runs in a process group of its own, which is killed when
// the run times out, when its context is cancelled, and as soon as the
// transpiler exits, so that nothing it started outlives the run (a process
// that leaves the group escapes this). On Linux the transpiler also gets a
// parent-death signal (SIGKILL): when mcpt is killed outright, the process
// it started dies too; what that process started in turn is its own
// affair. A run is TimedOut when Timeout or
// the deadline of the context passes; when the context is cancelled,
// Transpile returns the context's error. An output tree that breaks the
// caps or holds anything but regular files and directories makes the run
// Crashed, with a line "mcpt: output tree: …" after the kept standard error.
type Command struct {
	// Process is the process a configuration describes: the command
	// line, its directory and environment, the timeout, the exit codes,
	// the output caps and the input's name.
	//
	// Argv is the command line: the program and its arguments. Arguments
	// may contain the placeholders {input}, {inputname}, {outdir} and
	// {workdir}; they are substituted per argument and the command is
	// started directly, never through a shell, so spaces, quotes and $
	// stay literal. Argv[0] may not contain placeholders; without a slash
	// it is looked up in $PATH, with one it is relative to Dir.
	//
	// Dir is the working directory of the transpiler; empty means the
	// current directory of mcpt.
	//
	// Env holds extra KEY=value entries added on top of mcpt's own
	// environment. MCPT_ROLE=base or MCPT_ROLE=follow-up is always set
	// last and cannot be overridden.
	//
	// Timeout bounds one run; when it passes, the transpiler's whole
	// process group is killed and the run is TimedOut. Zero means
	// DefaultTimeout.
	//
	// Accept lists the exit codes of a successful run, whose output tree
	// is read; nil means [0]. Reject lists the exit codes with which the
	// transpiler refuses an input; nil means [1], an empty non-nil slice
	// means none. Any other code, or a signal, is a crash.
	//
	// MaxOutputFiles and MaxOutputBytes cap the output tree; a run that
	// exceeds them is Crashed. Zero means the default, negative no cap.
	//
	// InputName is the file name of the input when Request.Name is
	// empty; empty means DefaultInputName.
	spec.Process

	// WaitDelay bounds how long a run waits, once the transpiler has
	// exited or been killed and its process group with it, for processes
	// that left the group (a daemon that called setsid, say) to release
	// its standard error. Zero means DefaultWaitDelay.
	WaitDelay time.Duration

	// MaxStderrBytes is how much of the end of standard error is kept;
	// zero means DefaultMaxStderrBytes.
	MaxStderrBytes int

	// CaptureStdout, when set, interleaves standard output into the kept
	// standard error; otherwise the end of standard output is kept apart,
	// and stands for the standard error of a run that wrote nothing there.
	CaptureStdout bool

	// TempDir is where the private run directories are created; empty
	// means os.TempDir().
	TempDir string
}

// command is a validated Command with its defaults filled in.
type command struct {
	Command
	path   string // absolute path of the executable
	cwd    string // absolute working directory of the transpiler ("" when unknown)
	accept map[int]bool
	reject map[int]bool
}

// NewCommand checks c and returns a Transpiler that runs it. The checks are
// the ones that would otherwise fail every run: an empty or unresolvable
// command, an unknown placeholder, nonsensical limits.
func NewCommand(c Command) (Transpiler, error) {
	if !commandSupported {
		return nil, errCommandUnsupported
	}
	cmd, err := checkCommand(c)
	if err != nil {
		return nil, fmt.Errorf("transpiler command: %w", err)
	}
	return cmd, nil
}

// checkCommand checks c and fills in the defaults, in the order a user
// reads a command: the command line and environment, the directories, the
// program, the limits, the exit codes.
func checkCommand(c Command) (*command, error) {
	if err := checkArgv(c); err != nil {
		return nil, err
	}
	c.Argv = slices.Clone(c.Argv)
	c.Env = slices.Clone(c.Env)
	var err error
	if c.Dir != "" {
		if c.Dir, err = existingDir(c.Dir, "working directory"); err != nil {
			return nil, err
		}
	}
	if c.TempDir != "" {
		if c.TempDir, err = existingDir(c.TempDir, "temporary directory"); err != nil {
			return nil, err
		}
	}
	path, err := lookPath(c.Argv[0], c.Dir)
	if err != nil {
		return nil, err
	}
	if err := c.setLimits(); err != nil {
		return nil, err
	}
	accept, reject, err := c.exitCodes()
	if err != nil {
		return nil, err
	}
	cwd := c.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return &command{Command: c, path: path, cwd: cwd, accept: accept, reject: reject}, nil
}

// checkArgv checks the command line and the environment entries.
func checkArgv(c Command) error {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return errors.New("empty command line")
	}
	if placeholderRx.MatchString(c.Argv[0]) {
		return fmt.Errorf("%q: the program name cannot contain placeholders", c.Argv[0])
	}
	for i, a := range c.Argv[1:] {
		for _, p := range placeholderRx.FindAllString(a, -1) {
			if !slices.Contains(knownPlaceholders, p) {
				return fmt.Errorf("argument %d %q: unknown placeholder %s (known: %s)",
					i+1, a, p, strings.Join(knownPlaceholders, ", "))
			}
			if p == PlaceholderFlags && a != p {
				return fmt.Errorf("argument %d %q: %s stands for several arguments: write it as an argument of its own", i+1, a, p)
			}
		}
	}
	for _, kv := range c.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("environment entry %q is not KEY=value", kv)
		}
	}
	return nil
}

// setLimits checks the time and size limits and the input name, and puts
// the defaults in place of zeros.
func (c *Command) setLimits() error {
	switch {
	case c.Timeout < 0:
		return fmt.Errorf("negative timeout %v", c.Timeout)
	case c.Timeout == 0:
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.WaitDelay < 0:
		return fmt.Errorf("negative wait delay %v", c.WaitDelay)
	case c.WaitDelay == 0:
		c.WaitDelay = DefaultWaitDelay
	}
	switch {
	case c.MaxStderrBytes < 0:
		return fmt.Errorf("negative standard error limit %d", c.MaxStderrBytes)
	case c.MaxStderrBytes == 0:
		c.MaxStderrBytes = DefaultMaxStderrBytes
	}
	c.MaxOutputFiles = sizeLimit(c.MaxOutputFiles, DefaultMaxOutputFiles)
	c.MaxOutputBytes = sizeLimit(c.MaxOutputBytes, DefaultMaxOutputBytes)
	if c.InputName == "" {
		c.InputName = DefaultInputName
	}
	return checkInputName(c.InputName)
}

// sizeLimit is an output limit: negative is no cap (tree.Limits: 0), zero
// the default.
func sizeLimit[T int | int64](n, def T) T {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return def
	}
	return n
}

// exitCodes checks the accepted and rejecting exit codes, with their
// defaults (accept 0, reject 1), and returns them as sets.
func (c *Command) exitCodes() (accept, reject map[int]bool, err error) {
	if c.Accept == nil {
		c.Accept = []int{0}
	}
	if c.Reject == nil {
		c.Reject = []int{1}
	}
	if len(c.Accept) == 0 {
		return nil, nil, errors.New("no exit code is accepted")
	}
	accept, reject = map[int]bool{}, map[int]bool{}
	for _, code := range c.Accept {
		if code < 0 || code > 255 {
			return nil, nil, fmt.Errorf("accepted exit code %d outside 0…255", code)
		}
		accept[code] = true
	}
	for _, code := range c.Reject {
		if code < 0 || code > 255 {
			return nil, nil, fmt.Errorf("rejecting exit code %d outside 0…255", code)
		}
		if accept[code] {
			return nil, nil, fmt.Errorf("exit code %d both accepts and rejects", code)
		}
		reject[code] = true
	}
	return accept, reject, nil
}

// existingDir returns the absolute form of dir after checking that it is a
// directory.
func existingDir(dir, what string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s %q: %w", what, dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("%s %q is not a directory", what, dir)
	}
	return abs, nil
}

// lookPath resolves the program name as the transpiler will see it: a bare
// name through $PATH, a name with a slash relative to dir. The result is
// absolute, so that later changes of mcpt's directory do not matter.
func lookPath(name, dir string) (string, error) {
	p := name
	if strings.ContainsRune(name, filepath.Separator) && !filepath.IsAbs(name) && dir != "" {
		p = filepath.Join(dir, name)
	}
	resolved, err := exec.LookPath(p)
	if errors.Is(err, exec.ErrDot) {
		err = fmt.Errorf("found only relative to the current directory through $PATH; write it as ./%s", name)
	}
	if err != nil {
		var ee *exec.Error
		switch {
		case errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound):
			err = errors.New("not found in $PATH")
		case errors.As(err, &ee) && errors.Is(ee.Err, fs.ErrNotExist):
			err = errors.New("no such file")
		case errors.As(err, &ee) && errors.Is(ee.Err, fs.ErrPermission):
			err = errors.New("not an executable file")
		case errors.As(err, &ee):
			err = ee.Err
		}
		if p != name {
			return "", fmt.Errorf("%q (in %s): %w", name, dir, err)
		}
		return "", fmt.Errorf("%q: %w", name, err)
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		return "", fmt.Errorf("%q: %w", name, err)
	}
	return abs, nil
}

// checkInputName refuses input names that would leave the in/ directory.
func checkInputName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return fmt.Errorf("input name %q is not a plain file name", name)
	}
	return nil
}

// String renders the command line template.
func (c *command) String() string { return strings.Join(c.Argv, " ") }

// args substitutes the placeholders of the argument template: {flags}
// by the run's flags, the others in place.
func (c *command) args(input, outdir, workdir string, flags []string) []string {
	r := strings.NewReplacer(
		PlaceholderInput, input,
		PlaceholderInputName, filepath.Base(input),
		PlaceholderOutDir, outdir,
		PlaceholderWorkDir, workdir,
	)
	args := make([]string, 0, len(c.Argv)+len(flags))
	args = append(args, c.Argv[0])
	for _, a := range c.Argv[1:] {
		if a == PlaceholderFlags {
			args = append(args, flags...)
			continue
		}
		args = append(args, r.Replace(a))
	}
	return args
}

// env is the environment of one run.
func (c *command) env(role Role) []string {
	env := os.Environ()
	env = append(env, c.Env...)
	return append(env, "MCPT_ROLE="+role.String())
}
