package report

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/mcpt-tool/mcpt/result"
)

// Event is one line of the event stream: "case" for each test case run,
// "finding" for each finding. Fields that do not apply are left out.
type Event struct {
	Event    string            `json:"event"`
	Case     int               `json:"case"`
	Seed     string            `json:"seed,omitempty"`
	Flags    string            `json:"flags,omitempty"` // the combination of flags, as result.Finding.Flags
	Relation string            `json:"relation,omitempty"`
	Spot     *result.Spot      `json:"spot,omitempty"`
	Status   result.CaseStatus `json:"status,omitempty"`
	Reason   string            `json:"reason,omitempty"` // why a case was skipped (engine.CaseResult.Skip)

	ID        string      `json:"id,omitempty"`
	Kind      result.Kind `json:"kind,omitempty"`
	Checker   string      `json:"checker,omitempty"`
	File      string      `json:"file,omitempty"`
	Message   string      `json:"message,omitempty"`
	Signature string      `json:"signature,omitempty"`
	Bundle    string      `json:"bundle,omitempty"`
	// Counted and Candidate are the finding's (result.Finding): counted
	// in its group without a bundle, or the group's candidate.
	Counted   bool `json:"counted,omitempty"`
	Candidate bool `json:"candidate,omitempty"`
}

// EventWriter writes events as JSON Lines. It is safe for concurrent use;
// each event is written with one Write call and flushed, so that a reader
// tailing the stream never sees half a line.
type EventWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

// NewEventWriter returns an EventWriter on w.
func NewEventWriter(w io.Writer) *EventWriter {
	ew := &EventWriter{w: w}
	ew.enc = json.NewEncoder(&ew.buf)
	ew.enc.SetEscapeHTML(false)
	return ew
}

// Write writes one event.
func (ew *EventWriter) Write(e Event) error {
	ew.mu.Lock()
	defer ew.mu.Unlock()
	ew.buf.Reset()
	if err := ew.enc.Encode(e); err != nil {
		return err
	}
	if _, err := ew.w.Write(ew.buf.Bytes()); err != nil {
		return err
	}
	if f, ok := ew.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// Case writes the event of one test case, run on seed under the
// combination of flags flags ("" without flags).
func (ew *EventWriter) Case(n int, seed, flags, relation string, spot result.Spot, status result.CaseStatus, reason string) error {
	return ew.Write(Event{Event: "case", Case: n, Seed: seed, Flags: flags, Relation: relation, Spot: &spot, Status: status, Reason: reason})
}

// Finding writes the event of one finding.
func (ew *EventWriter) Finding(f *result.Finding) error {
	spot := f.Spot
	return ew.Write(Event{
		Event: "finding", Case: f.Case, Seed: f.SeedFile, Flags: f.Flags, Relation: f.Relation, Spot: &spot,
		ID: f.ID, Kind: f.Kind, Checker: f.Checker, File: f.File, Message: f.Message,
		Signature: f.Signature, Bundle: f.Bundle, Counted: f.Counted, Candidate: f.Candidate,
	})
}
