package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// cllc --worker is a persistent worker speaking the JSON form of Bazel's
// persistent worker protocol: each line of standard input holds one
// WorkRequest, and each request gets one line on standard output holding a
// WorkResponse with the same requestId,
//
//	{"arguments":["in/traffic.cll","-o","out"],"inputs":[…],"requestId":1}
//	{"exitCode":0,"output":"","requestId":1}
//
// A request's arguments are a command line of cllc, which runs as it would
// in a process of its own: the same files written, the same exit status
// (exitCode), and what it would print (output). Nothing is kept from one
// request to the next. The program cannot come from standard input ("-"),
// which carries the requests. A line that is no WorkRequest gets exit
// status 2 and the reason; the end of standard input ends the worker with
// status 0.

// maxRequestBytes bounds one request line; a longer one is refused whole.
const maxRequestBytes = 1 << 20

// workRequest is the part of Bazel's WorkRequest that cllc reads; inputs,
// verbosity and the sandbox directory are accepted and not needed.
type workRequest struct {
	Arguments []string `json:"arguments"`
	RequestID int64    `json:"requestId"`
	Cancel    bool     `json:"cancel"`
}

// workResponse is Bazel's WorkResponse, every field written.
type workResponse struct {
	ExitCode  int    `json:"exitCode"`
	Output    string `json:"output"`
	RequestID int64  `json:"requestId"`
}

// serve answers the requests of in on out until in ends; the error is
// one of reading in or writing out.
func serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		var resp workResponse
		switch {
		case errors.Is(err, errLineTooLong):
			resp = workResponse{ExitCode: 2, Output: fmt.Sprintf("cllc: request longer than %d bytes\n", maxRequestBytes)}
		case err != nil:
			return err
		default:
			var ok bool
			if resp, ok = handle(line); !ok {
				continue
			}
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// handle runs one request line; ok is false for a request that gets no
// response (a cancellation, which cllc never needs: it answers each
// request before reading the next).
func handle(line []byte) (resp workResponse, ok bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return workResponse{ExitCode: 2, Output: "cllc: empty request\n"}, true
	}
	var req workRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return workResponse{ExitCode: 2, Output: "cllc: request is no WorkRequest: " + err.Error() + "\n"}, true
	}
	if req.Cancel {
		return workResponse{}, false
	}
	var output bytes.Buffer
	code := report(run(req.Arguments, nil, &output, &output), &output)
	return workResponse{ExitCode: code, Output: output.String(), RequestID: req.RequestID}, true
}

// errLineTooLong is a request line over maxRequestBytes, skipped whole.
var errLineTooLong = errors.New("request line too long")

// readLine returns the next line of r without its newline. A last line
// without one counts; io.EOF means no line is left.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxRequestBytes+1 {
				tooLong, line = true, nil
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(line) > 0 || tooLong):
		case err != nil:
			return nil, err
		}
		if tooLong {
			return nil, errLineTooLong
		}
		return bytes.TrimSuffix(line, []byte("\n")), nil
	}
}
