package transpiler

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// service is an http transpiler for the tests: it upper-cases its input
// into NAME.out, rejects an input holding "bad", and answers otherwise as
// the input says.
func service(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src, _ := io.ReadAll(r.Body)
		name, role := r.Header.Get("Mcpt-Input-Name"), r.Header.Get("Mcpt-Role")
		switch in := string(src); {
		case r.Method != http.MethodPost:
			http.Error(w, "want POST", http.StatusMethodNotAllowed)
		case strings.Contains(in, "bad"):
			http.Error(w, "line 1: bad input", http.StatusUnprocessableEntity)
		case strings.Contains(in, "boom"):
			http.Error(w, "panic: boom", http.StatusInternalServerError)
		case strings.Contains(in, "escape"):
			json.NewEncoder(w).Encode(HTTPResponse{Files: map[string]string{"../x": "y"}})
		case strings.Contains(in, "garbage"):
			io.WriteString(w, "not json")
		case strings.Contains(in, "hang"):
			<-r.Context().Done()
		default:
			files := map[string]string{name + ".out": strings.ToUpper(in), "role.txt": role}
			if f, ok := r.Header["Mcpt-Flags"]; ok {
				files["flags.txt"] = strings.Join(f, "\n")
			}
			json.NewEncoder(w).Encode(HTTPResponse{Files: files})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPTranspiler(t *testing.T) {
	srv := service(t)
	tr, err := Open(spec.Spec{Kind: spec.HTTP, URL: srv.URL, Process: spec.Process{Timeout: 200 * time.Millisecond}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string, role Role) *Result {
		t.Helper()
		res, err := tr.Transpile(context.Background(), Request{Name: "a.cll", Src: []byte(src), Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run("hello", FollowUp)
	if res.Status != Accepted || string(res.Files["a.cll.out"]) != "HELLO" || string(res.Files["role.txt"]) != "follow-up" {
		t.Errorf("accepted run: %v %q", res.Status, res.Files)
	}
	if _, ok := res.Files["flags.txt"]; ok {
		t.Errorf("a run without flags sent Mcpt-Flags: %q", res.Files["flags.txt"])
	}
	// The flags go as a JSON array, ASCII only.
	res, err = tr.Transpile(context.Background(), Request{Name: "a.cll", Src: []byte("x"), Flags: []string{"--target", "es2022", "--name=caf\u00e9 \"q\"\n"}})
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	if raw := string(res.Files["flags.txt"]); json.Unmarshal([]byte(raw), &flags) != nil || strings.ContainsFunc(raw, func(r rune) bool { return r > 0x7e }) ||
		len(flags) != 3 || flags[2] != "--name=caf\u00e9 \"q\"\n" {
		t.Errorf("Mcpt-Flags %q read as %q", raw, flags)
	}
	for _, c := range []struct {
		src    string
		status Status
		stderr string
	}{
		{"bad", Rejected, "line 1: bad input"},
		{"boom", Crashed, "500 Internal Server Error\npanic: boom"},
		{"escape", Crashed, `file name "../x" leaves the output tree`},
		{"garbage", Crashed, "the answer is not"},
		// The service never answers: any timeout ends the run.
		{"hang", TimedOut, "no answer from"},
	} {
		res := run(c.src, Base)
		if res.Status != c.status || !strings.Contains(string(res.Stderr), c.stderr) || res.Files != nil {
			t.Errorf("%s: %v %q, want %v %q", c.src, res.Status, res.Stderr, c.status, c.stderr)
		}
	}
}

func TestHTTPTranspilerCaps(t *testing.T) {
	srv := service(t)
	for _, p := range []spec.Process{{MaxOutputFiles: 1}, {MaxOutputBytes: 3}} {
		tr, err := Open(spec.Spec{Kind: spec.HTTP, URL: srv.URL, Process: p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Transpile(context.Background(), Request{Name: "a", Src: []byte("hello")})
		if err != nil || res.Status != Crashed || !strings.Contains(string(res.Stderr), "over the cap") {
			t.Errorf("%+v: %v %v %q, want a crash over the cap", p, err, res.Status, res.Stderr)
		}
	}
}

func TestHTTPTranspilerUnreachable(t *testing.T) {
	srv := service(t)
	url := srv.URL
	srv.Close()
	tr, err := Open(spec.Spec{Kind: spec.HTTP, URL: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Transpile(context.Background(), Request{Name: "a", Src: []byte("x")})
	if err != nil || res.Status != Crashed || !strings.Contains(string(res.Stderr), "mcpt: ") {
		t.Errorf("%v %v %q, want a crash saying why", err, res.Status, res.Stderr)
	}
}

func TestOpenRefusesABadURLAndAnUnknownKind(t *testing.T) {
	for _, s := range []spec.Spec{{Kind: spec.HTTP, URL: "ftp://x"}, {Kind: spec.HTTP, URL: "http://"}, {Kind: "docker"}} {
		if _, err := Open(s, nil); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
