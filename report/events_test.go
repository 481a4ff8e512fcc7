package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

func TestEventLines(t *testing.T) {
	var buf bytes.Buffer
	ew := NewEventWriter(&buf)
	spot := result.Spot{Index: 1, Line: 4, Col: 15, Desc: "in states, between Red and Green"}
	if err := ew.Case(3, "traffic.cll", "", "augment-enumeration", spot, result.CasePass, ""); err != nil {
		t.Fatal(err)
	}
	want := `{"event":"case","case":3,"seed":"traffic.cll","relation":"augment-enumeration","spot":{"index":1,"line":4,"col":15,"desc":"in states, between Red and Green"},"status":"pass"}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("case event\n got %s\nwant %s", got, want)
	}
	// Under a combination of flags, the event says which.
	buf.Reset()
	if err := ew.Case(4, "traffic.cll", "fault=none", "augment-enumeration", spot, result.CasePass, ""); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.Contains(got, `"seed":"traffic.cll","flags":"fault=none","relation"`) {
		t.Errorf("case event under flags: %s", got)
	}

	buf.Reset()
	r := loadFixture(t)
	f := &r.Findings[3] // the add-attribute finding, with the payload in its evidence
	if err := ew.Finding(f); err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(buf.Bytes(), &ev); err != nil {
		t.Fatalf("finding event is not JSON: %v\n%s", err, buf.String())
	}
	for k, v := range map[string]any{"event": "finding", "case": float64(311), "id": "c000311-add-attribute", "kind": "oracle",
		"relation": "add-attribute", "seed": "boiler.cll", "signature": f.Signature, "file": "boiler_attrs.h", "bundle": "findings/c000311-add-attribute"} {
		if ev[k] != v {
			t.Errorf("finding event %s = %v, want %v", k, ev[k], v)
		}
	}
	if strings.Contains(buf.String(), "alert(1)") {
		t.Error("the finding event carries the evidence; it should stay in the bundle")
	}
	if strings.Count(buf.String(), "\n") != 1 {
		t.Error("an event is not one line")
	}
}

func TestEventWriterConcurrentAndFlushed(t *testing.T) {
	var out bytes.Buffer
	bw := bufio.NewWriterSize(&out, 1<<16)
	ew := NewEventWriter(&checkFlushed{w: bw, t: t})
	const workers, each = 8, 100
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				n := g*each + i
				status := result.CasePass
				if n%7 == 0 {
					status = result.CaseFinding
				}
				if err := ew.Case(n, "seed.cll", "", "add-timer", result.Spot{Index: i}, status, ""); err != nil {
					t.Error(err)
				}
				if status == result.CaseFinding {
					if err := ew.Finding(&result.Finding{ID: "x", Case: n, Kind: result.Oracle, Message: "line\nbreak"}); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	// Without any Flush from the test, everything has reached out.
	seen := map[int]bool{}
	findings := 0
	for line := range strings.Lines(out.String()) {
		var ev Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		switch ev.Event {
		case "case":
			if seen[ev.Case] {
				t.Errorf("case %d twice", ev.Case)
			}
			seen[ev.Case] = true
		case "finding":
			findings++
		}
	}
	if len(seen) != workers*each {
		t.Errorf("%d case events, want %d", len(seen), workers*each)
	}
	if want := (workers*each + 6) / 7; findings != want {
		t.Errorf("%d finding events, want %d", findings, want)
	}
}

// checkFlushed is a buffered writer that fails the test when an event is
// not flushed at the end of its line.
type checkFlushed struct {
	w *bufio.Writer
	t *testing.T
}

func (c *checkFlushed) Write(p []byte) (int, error) {
	if !bytes.HasSuffix(p, []byte("\n")) || bytes.Count(p, []byte("\n")) != 1 {
		c.t.Errorf("one Write is not one line: %q", p)
	}
	return c.w.Write(p)
}

func (c *checkFlushed) Flush() error { return c.w.Flush() }

func TestEventWriterReportsWriteErrors(t *testing.T) {
	ew := NewEventWriter(failingWriter{})
	if err := ew.Case(1, "s", "", "r", result.Spot{}, result.CaseSkip, "budget"); err == nil {
		t.Error("a failed write was not reported")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
