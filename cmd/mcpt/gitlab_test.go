package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/mcpt-tool/mcpt/result"
)

// gitlabJob is what the GitLab example of docs/clusters.md sets of a job:
// every key it uses, so that a strict decode refuses one misspelt.
type gitlabJob struct {
	Parallel  int      `yaml:"parallel"`
	Needs     []string `yaml:"needs"`
	Script    string   `yaml:"script"`
	Artifacts struct {
		Paths []string `yaml:"paths"`
		When  string   `yaml:"when"`
	} `yaml:"artifacts"`
}

// gitlabExample returns the GitLab pipeline of docs/clusters.md.
func gitlabExample(t *testing.T) map[string]gitlabJob {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "clusters.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(b, []byte("```yaml\n# GitLab CI\n"))
	block, _, ok2 := bytes.Cut(rest, []byte("```"))
	if !ok || !ok2 {
		t.Fatal("docs/clusters.md has no ```yaml block starting with # GitLab CI")
	}
	var jobs map[string]gitlabJob
	if err := yaml.UnmarshalWithOptions(block, &jobs, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// TestGitLabExample runs the GitLab pipeline of docs/clusters.md here: each
// job of `parallel: N` with the variables GitLab gives it (CI_NODE_INDEX,
// CI_NODE_TOTAL, CI_JOB_NAME "mcpt I/N"), then the merge job. With
// findings, every job succeeds, so that the merge job (which needs them)
// runs, and the merged report equals the unsharded campaign's; the
// artifacts are kept whatever a job exits. The same script in a job of
// `parallel: matrix:` (CI_JOB_NAME "mcpt: [8]") is refused rather than
// run as a shard. The budget stands in for the example's.
func TestGitLabExample(t *testing.T) {
	jobs := gitlabExample(t)
	shard, merge := jobs["mcpt"], jobs["merge"]
	if shard.Parallel < 2 || !slices.Equal(merge.Needs, []string{"mcpt"}) {
		t.Fatalf("not a parallel job and a merge job that needs it: %+v", jobs)
	}
	for name, j := range jobs {
		if j.Artifacts.When != "always" {
			t.Errorf("job %s keeps its artifacts when %q: a job that fails (a merge exiting 6, say) loses its report", name, j.Artifacts.When)
		}
	}
	bin := buildTools(t)
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "mcpt.yaml"), []byte(strings.Join([]string{
		"transpiler: {builtin: cllc, faults: [sorted-resets]}",
		"seeds: {files: ['" + examples + "/*.cll']}",
		"relations: {files: ['" + examples + "/relations/*.yaml']}",
	}, "\n")+"\n"), 0o644)
	const budget = "--max-cases 160 --max-spots 1"
	script := func(s string) string {
		if !strings.Contains(s, "--max-cases 20000") && strings.HasPrefix(s, "mcpt run") {
			t.Fatalf("the shards' script has no --max-cases 20000 to stand in for: %s", s)
		}
		return strings.ReplaceAll(s, "--max-cases 20000", budget)
	}
	job := func(s string, env ...string) *exec.Cmd {
		cmd := exec.Command("sh", "-c", s)
		cmd.Dir = work
		cmd.Env = append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)
		return cmd
	}
	n := strconv.Itoa(shard.Parallel)
	for i := 1; i <= shard.Parallel; i++ {
		idx := strconv.Itoa(i)
		out, err := job(script(shard.Script), "CI_NODE_INDEX="+idx, "CI_NODE_TOTAL="+n, "CI_JOB_NAME=mcpt "+idx+"/"+n).CombinedOutput()
		if err != nil {
			t.Fatalf("job mcpt %s/%s: %v\n%s", idx, n, err, out)
		}
		if want := "(shard " + strconv.Itoa(i-1) + "/" + n + ")"; !bytes.Contains(out, []byte(want)) {
			t.Errorf("job mcpt %s/%s is not %s:\n%s", idx, n, want, out)
		}
	}
	out, err := job(merge.Script).CombinedOutput()
	if err != nil {
		t.Fatalf("the merge job: %v\n%s", err, out)
	}
	whole := exec.Command(filepath.Join(bin, "mcpt"), append([]string{"run", "-c", "mcpt.yaml", "--seed", "7", "-q", "-o", "whole"}, strings.Fields(budget)...)...)
	whole.Dir = work
	if out, err := whole.CombinedOutput(); procExit(err) != 1 {
		t.Fatalf("unsharded run: %v\n%s", err, out)
	}
	merged, err := result.Load(filepath.Join(work, "out", "all", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, want := reportIDs(t, filepath.Join(work, "out", "all")), reportIDs(t, filepath.Join(work, "whole"))
	if len(want) == 0 || !slices.Equal(got, want) || merged.TestCases != 160 {
		t.Errorf("merged: %d test cases, %d findings; unsharded: %d findings", merged.TestCases, len(got), len(want))
	}

	// A matrix job: the same variables, another name.
	out, err = job(strings.ReplaceAll(script(shard.Script), "out/shard-", "sweep-"), "CI_NODE_INDEX=2", "CI_NODE_TOTAL=2", "CI_JOB_NAME=mcpt: [8]").CombinedOutput()
	if procExit(err) != 2 || !bytes.Contains(out, []byte("GitLab sets them for parallel: matrix: too")) {
		t.Errorf("the shards' script in a matrix job: %v\n%s", err, out)
	}
}
