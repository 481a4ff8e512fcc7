// Package spec describes how to reach the transpiler under test: one value,
// Spec, that a configuration decodes into, a recipe records, a journal's
// fingerprint hashes and `repro --trust` compares. A field added to Spec
// reaches all of them by itself: they all go through its JSON form.
package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
//
// A configuration's transpiler section decodes into it by the yaml tags:
// a setting tagged for:"KIND …" is one of those kinds only (untagged: of
// every kind), and the key of a field tagged selects:"KIND" gives the main
// setting of that kind and chooses it. Adding a setting is adding a field.
type Spec struct {
	Kind Kind `json:"kind" yaml:"-"`
	// Builtin names a builtin transpiler, made with Options and Faults.
	Builtin string            `json:"builtin,omitempty" yaml:"builtin" selects:"builtin"`
	Options map[string]string `json:"options,omitempty" yaml:"options" for:"builtin"`
	Faults  []string          `json:"faults,omitempty" yaml:"faults" for:"builtin"`
	// Process is how a command or a worker runs (and, of it, the timeout
	// and output caps that bound every kind).
	Process `yaml:",inline"`
	// Arguments is the template of a worker request's arguments (nil:
	// the default); WorkerRequests how many requests a worker process
	// serves before it is replaced (0: the default).
	Arguments      []string `json:"arguments" yaml:"arguments" for:"worker"`
	WorkerRequests int      `json:"worker_requests,omitempty" yaml:"worker_requests" for:"worker"`
	// URL is where an http transpiler takes its POSTs.
	URL string `json:"url,omitempty" yaml:"url" selects:"http"`
	// Version is the command line that prints the transpiler's release
	// (tsc --version), run once at start; nil: the release is not known.
	Version []string `json:"version,omitempty" yaml:"version" for:"command worker"`
}

// PlaceholderFlags is the argument of a command line (a command's, a
// worker request's) that stands for the arguments of the test case's
// combination of flags: none, one or several.
const PlaceholderFlags = "{flags}"

// Process describes a process that transpiles: a command started per run,
// or a worker. Accept and Reject keep nil (the default) apart from empty
// (no code), in their JSON form too. A configuration gives Argv under the
// key of its kind (command or worker).
type Process struct {
	Argv           []string      `json:"argv,omitempty" yaml:"-"`
	Dir            string        `json:"dir,omitempty" yaml:"dir" for:"command worker"` // the working directory
	Env            Env           `json:"env,omitempty" yaml:"env" for:"command worker"`
	Timeout        time.Duration `json:"timeout_ns,omitempty" yaml:"timeout"`
	Accept         []int         `json:"accept" yaml:"accept" for:"command worker"`
	Reject         []int         `json:"reject" yaml:"reject" for:"command worker"`
	InputName      string        `json:"input_name,omitempty" yaml:"input_name"`
	MaxOutputFiles int           `json:"max_output_files,omitempty" yaml:"max_output_files"`
	MaxOutputBytes int64         `json:"max_output_bytes,omitempty" yaml:"max_output_bytes"`
}

// Env is the environment a process gets on top of mcpt's: KEY=value
// entries, sorted. In YAML it is a mapping.
type Env []string

// UnmarshalYAML reads the mapping of KEY: value.
func (e *Env) UnmarshalYAML(unmarshal func(any) error) error {
	var m map[string]string
	if err := unmarshal(&m); err != nil {
		return err
	}
	*e = Env{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		*e = append(*e, k+"="+m[k])
	}
	return nil
}

// Problem is a value of a spec that no transpiler takes: under Key (the
// yaml key), at Item of its value when that is a sequence (else -1).
type Problem struct {
	Key  string
	Item int
	Msg  string
}

// Check lists the values of s that no transpiler takes, given tells
// which keys a configuration gave (a zero it gives is no default).
func (s Spec) Check(given func(key string) bool) []Problem {
	var ps []Problem
	for _, l := range []struct {
		key   string
		codes []int
	}{{"accept", s.Accept}, {"reject", s.Reject}} {
		for i, c := range l.codes {
			if c < 0 || c > 255 {
				ps = append(ps, Problem{l.key, i, fmt.Sprintf("%s: exit code %d outside 0…255", l.key, c)})
			}
		}
	}
	for i, c := range s.Reject {
		if slices.Contains(s.Accept, c) {
			ps = append(ps, Problem{"reject", i, fmt.Sprintf("transpiler: exit code %d is both accept and reject", c)})
		}
	}
	if given("worker_requests") && s.WorkerRequests <= 0 {
		ps = append(ps, Problem{"worker_requests", -1, fmt.Sprintf("worker_requests: must be positive, found %d", s.WorkerRequests)})
	}
	if given("version") && (len(s.Version) == 0 || s.Version[0] == "") {
		ps = append(ps, Problem{"version", -1, "version: want the command line that prints the release ([tsc, --version])"})
	}
	if given("timeout") && s.Timeout <= 0 {
		ps = append(ps, Problem{"timeout", -1, fmt.Sprintf("timeout: must be positive, found %s", s.Timeout)})
	}
	return ps
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
