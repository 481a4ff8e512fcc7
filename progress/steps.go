package progress

import (
	"io"
	"sync"
)

// Steps shows the progress of a command made of long steps, such as
// instrumenting, building and running: one bar at a time, a new step
// completing the bar of the one before. A nil *Steps shows nothing, for
// -q. Its methods are safe for concurrent use.
type Steps struct {
	w    io.Writer
	opts []Option

	mu   sync.Mutex
	name string
	bar  *Bar
}

// NewSteps shows steps on w; opts apply to the bar of every step.
func NewSteps(w io.Writer, opts ...Option) *Steps {
	return &Steps{w: w, opts: opts}
}

// Step records that step name, counting unit ("" for none), has done of
// total (0 when unknown) done.
func (s *Steps) Step(name, unit string, done, total int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar == nil || name != s.name {
		s.end()
		s.name = name
		s.bar = New(s.w, total, 0, append(s.opts, Task(name, unit))...)
	}
	s.bar.Update(done, 0)
}

// Done completes the bar of the last step.
func (s *Steps) Done() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.end()
}

func (s *Steps) end() {
	if s.bar != nil {
		s.bar.Done()
		s.bar = nil
	}
}
