package transpiler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"github.com/mcpt-tool/mcpt/tree"
)

// An http transpiler is a service: each run POSTs the input to its URL,
// with the headers Mcpt-Input-Name (the input's file name) and Mcpt-Role
// (base or follow-up), and Mcpt-Flags (the arguments of the run's flags
// as a JSON array of strings, ASCII only) when it has flags, and reads
// the answer. Status 200 is an accepted run,
// whose body is the output tree as JSON, {"files": {"PATH": "TEXT", …}};
// status 422 is a rejected input, any other status a crash, the body kept
// as the run's standard error in both cases. A run that passes the timeout
// is TimedOut; one that cannot reach the service is Crashed, saying why.
// The output caps bound the answer as they bound a command's output tree.
type httpTranspiler struct {
	url      string
	timeout  time.Duration
	maxFiles int
	maxBytes int64
	client   *http.Client
}

// HTTPResponse is the body of an http transpiler's accepted run.
type HTTPResponse struct {
	Files map[string]string `json:"files"`
}

func openHTTP(s spec.Spec, _ BuiltinSet) (Transpiler, error) {
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("http transpiler: want an http:// or https:// URL, found %q", s.URL)
	}
	t := &httpTranspiler{url: s.URL, timeout: s.Timeout, client: &http.Client{}}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	t.maxFiles = sizeLimit(s.MaxOutputFiles, DefaultMaxOutputFiles)
	t.maxBytes = sizeLimit(s.MaxOutputBytes, DefaultMaxOutputBytes)
	return t, nil
}

func (t *httpTranspiler) String() string { return "POST " + t.url }

// Transpile POSTs the input and reads the answer.
func (t *httpTranspiler) Transpile(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(rctx, http.MethodPost, t.url, bytes.NewReader(req.Src))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/octet-stream")
	hr.Header.Set("Mcpt-Input-Name", req.Name)
	hr.Header.Set("Mcpt-Role", req.Role.String())
	if len(req.Flags) > 0 {
		hr.Header.Set("Mcpt-Flags", asciiJSON(req.Flags))
	}
	res := &Result{ExitCode: -1}
	defer func() { res.Duration = time.Since(start) }()
	resp, err := t.client.Do(hr)
	if err != nil {
		return t.failed(ctx, rctx, res, err)
	}
	defer resp.Body.Close()
	limit := t.maxBytes
	if limit <= 0 {
		limit = DefaultMaxOutputBytes
	}
	// JSON escapes cost up to six bytes a byte: bound the body, then the tree.
	body, err := io.ReadAll(io.LimitReader(resp.Body, 6*limit+1<<10))
	if err != nil {
		return t.failed(ctx, rctx, res, err)
	}
	res.ExitCode = resp.StatusCode
	switch resp.StatusCode {
	case http.StatusOK:
		return t.accepted(res, body), nil
	case http.StatusUnprocessableEntity:
		res.Status, res.Stderr = Rejected, bodyTail(body)
	default:
		res.Status, res.Stderr = Crashed, append([]byte(resp.Status+"\n"), bodyTail(body)...)
	}
	return res, nil
}

// failed is the result of a run that got no complete answer: TimedOut
// past the run's timeout, the context's error when the campaign's ends,
// else Crashed.
func (t *httpTranspiler) failed(ctx, rctx context.Context, res *Result, err error) (*Result, error) {
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		res.Status, res.Stderr = TimedOut, fmt.Appendf(nil, "mcpt: no answer from %s within %v\n", t.url, t.timeout)
	default:
		res.Status, res.Stderr = Crashed, fmt.Appendf(nil, "mcpt: %v\n", err)
	}
	return res, nil
}

// accepted reads the output tree of an accepted run; an answer that is no
// output tree, or breaks the caps, makes the run Crashed.
func (t *httpTranspiler) accepted(res *Result, body []byte) *Result {
	var hr HTTPResponse
	crash := func(format string, args ...any) *Result {
		res.Status, res.Stderr = Crashed, fmt.Appendf(nil, "mcpt: output tree: "+format+"\n", args...)
		return res
	}
	if err := json.Unmarshal(body, &hr); err != nil {
		return crash("the answer is not {\"files\": {…}}: %v", err)
	}
	if t.maxFiles > 0 && len(hr.Files) > t.maxFiles {
		return crash("%d files, over the cap of %d", len(hr.Files), t.maxFiles)
	}
	files := tree.Tree{}
	var size int64
	for name, text := range hr.Files {
		if !fs.ValidPath(name) || name == "." {
			return crash("file name %q leaves the output tree", name)
		}
		size += int64(len(text))
		files[name] = []byte(text)
	}
	if t.maxBytes > 0 && size > t.maxBytes {
		return crash("%d bytes, over the cap of %d", size, t.maxBytes)
	}
	res.Status, res.Files = Accepted, files
	return res
}

// bodyTail is the end of b that a run keeps as its standard error.
func bodyTail(b []byte) []byte {
	if len(b) > DefaultMaxStderrBytes {
		b = b[len(b)-DefaultMaxStderrBytes:]
	}
	return b
}

// asciiJSON is the JSON array of args with every character outside
// printable ASCII escaped, fit for a header.
func asciiJSON(args []string) string {
	b, _ := json.Marshal(args) // strings: cannot fail
	var out strings.Builder
	for _, r := range string(b) {
		if r >= 0x20 && r < 0x7f {
			out.WriteRune(r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&out, `\u%04x`, u)
		}
	}
	return out.String()
}
