// Package spec describes how to reach the transpiler under test: one value,
// Spec, that a configuration decodes into, a recipe records, a journal's
// fingerprint hashes and `repro --trust` compares. A field added to Spec
// reaches all of them by itself: they all go through its JSON form.
package spec

import (
	"bytes"
	"encoding/json"
	"time"
)

// Kind is the kind of a transpiler: how mcpt reaches it.
type Kind string

// The kinds of transpiler.
const (
	Builtin Kind = "builtin" // Go code in process, by name
	Command Kind = "command" // an external command started per run
	Worker  Kind = "worker"  // a persistent process serving runs one after another
	HTTP    Kind = "http"    // a service that takes the input in a POST and answers with the output tree
)

// Spec is a transpiler: its kind and the settings of that kind.
type Spec struct {
	Kind Kind `json:"kind"`
	// Builtin names a builtin transpiler, made with Options and Faults.
	Builtin string            `json:"builtin,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Faults  []string          `json:"faults,omitempty"`
	// Process is how a command or a worker runs (and, of it, the timeout
	// and output caps that bound every kind).
	Process
	// Arguments is the template of a worker request's arguments (nil:
	// the default); WorkerRequests how many requests a worker process
	// serves before it is replaced (0: the default).
	Arguments      []string `json:"arguments"`
	WorkerRequests int      `json:"worker_requests,omitempty"`
	// URL is where an http transpiler takes its POSTs.
	URL string `json:"url,omitempty"`
}

// Process describes a process that transpiles: a command started per run,
// or a worker. Accept and Reject keep nil (the default) apart from empty
// (no code), in their JSON form too.
type Process struct {
	Argv           []string      `json:"argv,omitempty"`
	Dir            string        `json:"dir,omitempty"` // the working directory
	Env            []string      `json:"env,omitempty"` // KEY=value, sorted
	Timeout        time.Duration `json:"timeout_ns,omitempty"`
	Accept         []int         `json:"accept"`
	Reject         []int         `json:"reject"`
	InputName      string        `json:"input_name,omitempty"`
	MaxOutputFiles int           `json:"max_output_files,omitempty"`
	MaxOutputBytes int64         `json:"max_output_bytes,omitempty"`
}

// JSON is the canonical form of s: the form a recipe records, and the one
// Equal and Fingerprint compare and hash (encoding/json sorts map keys).
func (s Spec) JSON() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic("spec: " + err.Error()) // cannot happen: every field encodes
	}
	return b
}

// Equal tells whether s and o describe the same transpiler, every setting
// alike: it is what `repro` asks before running a recipe's transpiler
// without --trust.
func (s Spec) Equal(o Spec) bool { return bytes.Equal(s.JSON(), o.JSON()) }

// Fingerprint is s for a journal's fingerprint.
func (s Spec) Fingerprint() string { return string(s.JSON()) }

// Runs is what the transpiler reaches outside mcpt, for people: the
// command line of a command or a worker, the URL of an http transpiler;
// nil for a builtin.
func (s Spec) Runs() []string {
	switch {
	case s.Kind == HTTP:
		return []string{s.URL}
	case s.Kind != Builtin:
		return s.Argv
	}
	return nil
}

// UnmarshalJSON decodes a spec, and the transpiler of a recipe written by
// an earlier version of mcpt, which had no kind and gave the command line
// under command or worker.
func (s *Spec) UnmarshalJSON(b []byte) error {
	type plain Spec
	var v struct {
		plain
		Command []string `json:"command"`
		Worker  []string `json:"worker"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Spec(v.plain)
	if s.Kind == "" {
		switch {
		case s.Builtin != "":
			s.Kind = Builtin
		case len(v.Worker) > 0:
			s.Kind, s.Argv = Worker, v.Worker
		case len(v.Command) > 0:
			s.Kind, s.Argv = Command, v.Command
		}
	}
	return nil
}
