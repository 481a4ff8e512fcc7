package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerMatchesOneShot sends serve a request for every example, by
// default and with a fault, and for programs with static and usage errors,
// and compares each response and output directory with those of a run of
// cllc on its own with the same arguments: byte for byte the same files,
// the same exit status, and the output that run printed.
func TestWorkerMatchesOneShot(t *testing.T) {
	examples, err := filepath.Glob("../../examples/cll/*.cll")
	if err != nil || len(examples) < 8 {
		t.Fatalf("examples %v: %v", examples, err)
	}
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.cll")
	if err := os.WriteFile(bad, []byte("logic L\ndeclarations\n  states A, A\ninit\ncycle\n  send X\nconfiguration\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var cmdLines [][]string
	for _, ex := range examples {
		cmdLines = append(cmdLines, []string{ex, "-o", "OUT"}, []string{ex, "--fault", "reverse-enums", "-o", "OUT"})
	}
	cmdLines = append(cmdLines,
		[]string{bad, "-o", "OUT"},                          // static errors: 1
		[]string{"-o", "OUT", examples[0], "--fault", "no"}, // unknown fault: 2
		[]string{filepath.Join(tmp, "missing.cll"), "-o", "OUT"},
		[]string{"--list-faults"},
		[]string{examples[0]}, // no -o: 2
	)

	var requests bytes.Buffer
	type expect struct {
		code           int
		output         string
		oneShot, inDir string
	}
	var want []expect
	for i, args := range cmdLines {
		oneShot, worker := filepath.Join(tmp, fmt.Sprintf("one%d", i)), filepath.Join(tmp, fmt.Sprintf("worker%d", i))
		var stdout, stderr bytes.Buffer
		code := report(run(withOut(args, oneShot), nil, &stdout, &stderr), &stderr)
		want = append(want, expect{code, stdout.String() + stderr.String(), oneShot, worker})
		line, err := json.Marshal(map[string]any{
			"arguments": withOut(args, worker), "inputs": []any{}, "requestId": i + 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		requests.Write(append(line, '\n'))
	}

	var out bytes.Buffer
	if err := serve(&requests, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	codes := map[int]int{}
	for i := 0; sc.Scan(); i++ {
		if i >= len(want) {
			t.Fatalf("response %d for %d requests: %s", i+1, len(want), sc.Text())
		}
		var resp workResponse
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&resp); err != nil {
			t.Fatalf("response %d: %v: %s", i+1, err, sc.Text())
		}
		w := want[i]
		if resp.RequestID != int64(i+1) || resp.ExitCode != w.code || resp.Output != w.output {
			t.Errorf("request %d %q: response %+v, want exit %d, output %q", i+1, cmdLines[i], resp, w.code, w.output)
		}
		if a, b := snapshot(t, w.oneShot), snapshot(t, w.inDir); a != b {
			t.Errorf("request %d %q: worker wrote\n%s\none-shot cllc wrote\n%s", i+1, cmdLines[i], b, a)
		}
		codes[resp.ExitCode]++
	}
	if len(codes) != 3 || codes[0] < 2*len(examples) {
		t.Errorf("exit statuses %v: the cases do not cover 0, 1 and 2", codes)
	}
}

// withOut replaces OUT in args by dir.
func withOut(args []string, dir string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "OUT", dir)
	}
	return out
}

// snapshot renders the files of dir, names and contents, or "none".
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return "none"
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- %s --\n%s", e.Name(), data)
	}
	return b.String()
}

// TestWorkerBadRequests: lines that are no WorkRequest get exit status 2
// and a reason, a cancellation gets no response, the worker goes on, and
// the end of its input ends it without error.
func TestWorkerBadRequests(t *testing.T) {
	in := strings.Join([]string{
		`not json`,
		``,
		`{"arguments":"x.cll","requestId":7}`,
		`{"requestId":8,"cancel":true}`,
		`{"arguments":["-","-o","out"],"requestId":9}`,
		`{"arguments":["--worker"],"requestId":10}`,
		`{"arguments":[` + strings.Repeat(`"x",`, maxRequestBytes/4) + `"x"],"requestId":11}`,
		`{"arguments":["--list-faults"],"requestId":12,"verbosity":0,"sandboxDir":""}`,
	}, "\n") // the last line has no newline
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []struct {
		id, code int
		output   string
	}{
		{0, 2, "cllc: request is no WorkRequest: invalid character"},
		{0, 2, "cllc: empty request"},
		{0, 2, "cllc: request is no WorkRequest: json: cannot unmarshal string"},
		{9, 2, "cllc: no standard input to read the program from"},
		{10, 2, "cllc: --worker takes no other argument"},
		{0, 2, fmt.Sprintf("cllc: request longer than %d bytes", maxRequestBytes)},
		{12, 0, "attr-escape\t"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d responses, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		var resp workResponse
		if err := json.Unmarshal([]byte(lines[i]), &resp); err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		if resp.RequestID != int64(w.id) || resp.ExitCode != w.code || !strings.HasPrefix(resp.Output, w.output) {
			t.Errorf("response %d: %+v, want id %d, exit %d, output starting %q", i+1, resp, w.id, w.code, w.output)
		}
	}
}
