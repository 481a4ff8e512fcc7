package cli

import (
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

// TestStopWhileWritingTheReport: a SIGTERM while report.html is written
// (here, a writer that never ends) ends the writing at once, report.json
// written; without one, the writer's outcome is the result.
func TestStopWhileWritingTheReport(t *testing.T) {
	defer func(w func(string, *result.Report) error) { writeHTMLReport = w }(writeHTMLReport)
	block := make(chan struct{})
	defer close(block)
	started := make(chan struct{})
	writeHTMLReport = func(string, *result.Report) error {
		close(started)
		<-block
		return nil
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	defer signal.Stop(sig)
	out := t.TempDir()
	rep := &result.Report{Tool: "mcpt", Findings: []result.Finding{}}
	go func() {
		<-started
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}()
	err := writeFinalReport(out, rep, sig)
	var stop *reportStopped
	if !errors.As(err, &stop) || stop.sig != syscall.SIGTERM {
		t.Fatalf("writing stopped by SIGTERM: %v", err)
	}
	if _, err := result.Load(filepath.Join(out, "report.json")); err != nil {
		t.Errorf("report.json: %v", err)
	}

	writeHTMLReport = func(string, *result.Report) error { return errors.New("disk full") }
	if err := writeFinalReport(out, rep, sig); err == nil || err.Error() != "disk full" {
		t.Errorf("a write that failed: %v", err)
	}
}
