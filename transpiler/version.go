package transpiler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/mcpt-tool/mcpt/release"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// maxVersionOutput bounds what is kept of a version command's output: the
// release is at its start.
const maxVersionOutput = 64 << 10

// Release runs the version command of s (spec.Spec.Version) once, in the
// transpiler's directory and environment and within its timeout, and
// returns the first version number it prints on standard output or
// standard error (release.Find). ok is false when s has no version
// command, or is neither a command nor a worker. A command that cannot start, fails, times out or prints no
// version number is an error that says which and shows what it printed.
func Release(ctx context.Context, s spec.Spec) (v release.Version, ok bool, err error) {
	// A version command is a setting of a command or a worker only: run
	// with theirs, under the same trust (a bundle's builtin runs without).
	if len(s.Version) == 0 || s.Kind != spec.Command && s.Kind != spec.Worker {
		return release.Version{}, false, nil
	}
	show := strings.Join(s.Version, " ")
	fail := func(format string, args ...any) (release.Version, bool, error) {
		return release.Version{}, true, fmt.Errorf("transpiler version command %q: %s", show, fmt.Sprintf(format, args...))
	}
	path, err := lookPath(s.Version[0], s.Dir)
	if err != nil {
		return fail("%v", err)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, path, s.Version[1:]...)
	cmd.Args[0] = s.Version[0]
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), s.Env...)
	out := &headBuffer{max: maxVersionOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = DefaultWaitDelay
	runErr := cmd.Run()
	said := firstLines(out.Bytes(), 3)
	switch {
	case ctx.Err() != nil:
		return release.Version{}, true, ctx.Err()
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		return fail("did not finish within %v", timeout)
	case runErr != nil:
		return fail("%v%s", runErr, said)
	}
	v, found := release.Find(out.String())
	if !found {
		if said == "" {
			said = " (it printed nothing)"
		}
		return fail("printed no version number such as 5.9.3 or v1.26.0%s", said)
	}
	return v, true, nil
}

// firstLines is the start of out, at most n lines, quoted after a colon,
// for a message; "" when out is empty.
func firstLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return fmt.Sprintf(": %q", strings.Join(lines, "\n"))
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	bytes.Buffer
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.Len(); room > 0 {
		h.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
