package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/transpiler"
)

// httpTranspilerMain is the command http-transpiler of the scripts:
//
//	http-transpiler [-reverse] TEMPLATE CONFIG COMMAND [ARG…]
//
// It serves an http transpiler on a free port of 127.0.0.1, writes CONFIG
// from TEMPLATE with each URL replaced by the transpiler's address, runs
// COMMAND and exits with its exit status. The transpiler answers with the
// input as out.txt, and refuses (422) an input holding "broken"; with
// -reverse, a follow-up's lines come out in reverse order: a fault.
func httpTranspilerMain() {
	args := os.Args[1:]
	reverse := len(args) > 0 && args[0] == "-reverse"
	if reverse {
		args = args[1:]
	}
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: http-transpiler [-reverse] TEMPLATE CONFIG COMMAND [ARG…]")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		text := string(in)
		if strings.Contains(text, "broken") {
			http.Error(w, r.Header.Get("Mcpt-Input-Name")+":1:1: broken input", http.StatusUnprocessableEntity)
			return
		}
		if reverse && r.Header.Get("Mcpt-Role") == "follow-up" {
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			slices.Reverse(lines)
			text = strings.Join(lines, "\n") + "\n"
		}
		json.NewEncoder(w).Encode(transpiler.HTTPResponse{Files: map[string]string{"out.txt": text}})
	}))
	tmpl, err := os.ReadFile(args[0])
	if err == nil {
		err = os.WriteFile(args[1], []byte(strings.ReplaceAll(string(tmpl), "URL", "http://"+ln.Addr().String())), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}
