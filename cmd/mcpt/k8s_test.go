package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// indexedJob is what the Kubernetes example sets of a batch/v1 Job: every
// field it uses, so that a strict decode refuses one misspelt or misplaced.
type indexedJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode   string `yaml:"completionMode"`
		Completions      int    `yaml:"completions"`
		Parallelism      int    `yaml:"parallelism"`
		BackoffLimit     int    `yaml:"backoffLimit"`
		PodFailurePolicy struct {
			Rules []struct {
				Action          string `yaml:"action"`
				OnPodConditions []struct {
					Type string `yaml:"type"`
				} `yaml:"onPodConditions"`
				OnExitCodes *struct {
					ContainerName string `yaml:"containerName"`
					Operator      string `yaml:"operator"`
					Values        []int  `yaml:"values"`
				} `yaml:"onExitCodes"`
			} `yaml:"rules"`
		} `yaml:"podFailurePolicy"`
		Template struct {
			Spec struct {
				RestartPolicy                 string `yaml:"restartPolicy"`
				TerminationGracePeriodSeconds int    `yaml:"terminationGracePeriodSeconds"`
				ShareProcessNamespace         bool   `yaml:"shareProcessNamespace"`
				Containers                    []struct {
					Name       string `yaml:"name"`
					Image      string `yaml:"image"`
					WorkingDir string `yaml:"workingDir"`
					Env        []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
					Command   []string `yaml:"command"`
					Args      []string `yaml:"args"`
					Resources struct {
						Requests map[string]string `yaml:"requests"`
					} `yaml:"resources"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

const k8sExample = "../../examples/k8s/indexed-job.yaml"

// loadIndexedJob decodes the Kubernetes example strictly and checks what a
// campaign needs of it: an Indexed Job with more completions than pods at
// once (oversharding), the shard count in the pod's env, equal to the
// completions, a volume said to be ReadWriteMany, pods that exec mcpt so
// that a preemption reaches it, and exit 4 run again.
func loadIndexedJob(t *testing.T) *indexedJob {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(k8sExample))
	if err != nil {
		t.Fatal(err)
	}
	var job indexedJob
	if err := yaml.UnmarshalWithOptions(b, &job, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	s := &job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed Job of one container: %+v", job)
	}
	if s.Completions <= s.Parallelism || s.Parallelism < 2 {
		t.Errorf("completions %d, parallelism %d: the example does not overshard", s.Completions, s.Parallelism)
	}
	c := s.Template.Spec.Containers[0]
	count := ""
	for _, e := range c.Env {
		if e.Name == "MCPT_SHARD_COUNT" {
			count = e.Value
		}
	}
	if count != strconv.Itoa(s.Completions) {
		t.Errorf("MCPT_SHARD_COUNT %q in the pod's env, completions %d", count, s.Completions)
	}
	if !bytes.Contains(b, []byte("ReadWriteMany")) {
		t.Error("the example does not say that the volume must be ReadWriteMany")
	}
	args := strings.Join(c.Args, " ")
	if n, execs := strings.Count(args, "mcpt run"), strings.Count(args, "exec mcpt run"); n == 0 || n != execs {
		t.Errorf("%d of %d runs of mcpt are not exec'd: a shell between would keep SIGTERM from mcpt", n-execs, n)
	}
	// An interrupted shard (4), an aborted one (130: a second signal, as
	// docs/clusters.md says) and a killed one (137) are run again and
	// resume; a usage error (2) fails the Job.
	failsJob := func(code int) bool {
		for _, r := range s.PodFailurePolicy.Rules {
			if r.Action == "FailJob" && r.OnExitCodes != nil {
				if in := slices.Contains(r.OnExitCodes.Values, code); in == (r.OnExitCodes.Operator == "In") {
					return true
				}
			}
		}
		return false
	}
	for _, code := range []int{exitInterrupted, 130, 137} {
		if s.BackoffLimit == 0 || failsJob(code) {
			t.Errorf("a shard that exits %d is not run again", code)
		}
	}
	if !failsJob(2) {
		t.Error("a usage error (exit 2) does not fail the Job")
	}
	// Findings and seeds a relation skipped are a complete shard's result:
	// a pod that exits 1 or 6 would fail the Job.
	for _, flag := range []string{"--findings-exit-code 0", "--skipped-exit-code 0"} {
		if n, with := strings.Count(args, "mcpt run"), strings.Count(args, flag); n != with {
			t.Errorf("%d of %d runs of mcpt lack %s", n-with, n, flag)
		}
	}
	return &job
}

// TestIndexedJobExample checks the Kubernetes example (see loadIndexedJob).
func TestIndexedJobExample(t *testing.T) { loadIndexedJob(t) }

// TestIndexedJobPods runs the example's pods here, each with the
// environment Kubernetes gives it (JOB_COMPLETION_INDEX alone) and the
// manifest's own env: one pod is SIGTERMed (a preemption) and one
// SIGKILLed, each then run again as the Job would; the shards merged are
// the unsharded campaign. The campaign's budget stands in for its 12 hours.
func TestIndexedJobPods(t *testing.T) {
	testtier.Long(t, "eight shards, two of them stopped and run again")
	job := loadIndexedJob(t)
	bin := buildTools(t)
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	dir := t.TempDir()
	work, outDir := filepath.Join(dir, "campaign"), filepath.Join(dir, "out")
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(work, "mcpt.yaml"), []byte(strings.Join([]string{
		"transpiler:",
		`  command: [sh, -c, 'sleep 0.05; exec cllc --fault sorted-resets "$0" -o "$1"', '{input}', '{outdir}']`,
		"confirm_runs: 1", // the fault is deterministic: one re-run confirms it
		"seeds: {files: ['" + examples + "/*.cll']}",
		"relations: {files: ['" + examples + "/relations/*.yaml']}",
	}, "\n")+"\n"), 0o644)
	budget := "--max-cases 120 --max-spots 1 --workers 1" // every shard a seed of 10 to 22 test cases
	c := job.Spec.Template.Spec.Containers[0]
	podEnv := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, e := range c.Env {
		podEnv = append(podEnv, e.Name+"="+e.Value)
	}
	var args []string
	for _, a := range c.Args {
		if !strings.Contains(a, "--max-time 12h") || !strings.Contains(a, "/out/") {
			t.Fatalf("the pod's command has no --max-time 12h or /out/ to stand in for: %s", a)
		}
		a = strings.ReplaceAll(a, "--max-time 12h", budget)
		args = append(args, strings.ReplaceAll(a, "/out/", outDir+"/"))
	}
	pod := func(i int) *exec.Cmd {
		cmd := exec.Command(c.Command[0], append(slices.Clone(c.Command[1:]), args...)...)
		cmd.Dir = work
		cmd.Env = append(slices.Clone(podEnv), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		return cmd
	}

	whole := exec.Command(filepath.Join(bin, "mcpt"), append([]string{"run", "-c", "mcpt.yaml", "--seed", "7", "-q", "-o", filepath.Join(dir, "whole")}, strings.Fields(budget)...)...)
	whole.Dir, whole.Env = work, podEnv[:1]
	if out, err := whole.CombinedOutput(); procExit(err) != 1 {
		t.Fatalf("unsharded run: %v\n%s", err, out)
	}

	stopped := map[int]syscall.Signal{1: syscall.SIGTERM, 2: syscall.SIGKILL}
	for i := range job.Spec.Completions {
		if sig, ok := stopped[i]; ok {
			code := stopPod(t, pod(i), filepath.Join(outDir, "shard-"+strconv.Itoa(i)), sig)
			want := map[syscall.Signal]int{syscall.SIGTERM: exitInterrupted, syscall.SIGKILL: -1}[sig]
			if code != want {
				t.Errorf("pod %d after %v: exit %d, want %d", i, sig, code, want)
			}
			t.Logf("pod %d: %v, exit %d; run again", i, sig, code)
		}
		if out, err := pod(i).CombinedOutput(); err != nil {
			t.Fatalf("pod %d: %v\n%s", i, err, out)
		}
	}
	var shards []string
	for i := range job.Spec.Completions {
		shards = append(shards, filepath.Join(outDir, "shard-"+strconv.Itoa(i)))
	}
	merge := exec.Command(filepath.Join(bin, "mcpt"), append([]string{"merge", "--findings-exit-code", "0", "-o", filepath.Join(outDir, "all")}, shards...)...)
	if out, err := merge.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	got, want := reportIDs(t, filepath.Join(outDir, "all")), reportIDs(t, filepath.Join(dir, "whole"))
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("merged: %d findings, unsharded: %d", len(got), len(want))
	}
	a, _ := result.Load(filepath.Join(outDir, "all", "report.json"))
	b, _ := result.Load(filepath.Join(dir, "whole", "report.json"))
	if a == nil || b == nil || a.TestCases != b.TestCases || a.TranspilerRuns != b.TranspilerRuns {
		t.Errorf("merged and unsharded reports differ in test cases or runs")
	}
	t.Logf("%d pods, merged = unsharded: %d test cases, %d findings", job.Spec.Completions, b.TestCases, len(want))
}

// stopPod starts a pod, sends it sig once its shard has journaled a few
// test cases, and returns its exit status (-1 for a signal).
func stopPod(t *testing.T, cmd *exec.Cmd, out string, sig syscall.Signal) int {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		b, _ := os.ReadFile(filepath.Join(out, "journal.jsonl"))
		if bytes.Count(b, []byte("\n")) > 3 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the pod ended before it could be stopped: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cmd.Process.Signal(sig)
	return procExit(<-done)
}
