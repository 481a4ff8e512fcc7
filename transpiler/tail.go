package transpiler

import "sync"

// tail is a writer that keeps only the last max bytes written to it, so that
// a transpiler printing without end costs bounded memory.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte // holds up to 2*max bytes; the last max of them count
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	if len(t.buf)+len(p) > 2*t.max {
		keep := t.max - len(p)
		t.buf = t.buf[:copy(t.buf, t.buf[len(t.buf)-keep:])]
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// Bytes returns a copy of the kept bytes.
func (t *tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	if len(b) == 0 {
		return nil
	}
	return append([]byte(nil), b...)
}

// appendNote adds a line of mcpt's own to a transpiler's standard error, so
// that a report says why a run that exited cleanly counts as a crash.
func appendNote(stderr []byte, note string) []byte {
	out := append([]byte(nil), stderr...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, "mcpt: "+note+"\n"...)
}
