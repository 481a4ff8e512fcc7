package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// slurm is a single-node Slurm cluster of its own: munged, slurmctld and
// slurmd started here, on free ports, with every file in one directory.
type slurm struct {
	dir, conf string
	env       []string
	pids      []string // pid files of the daemons, stopped in reverse
}

// startSlurm brings up the cluster; t.Cleanup stops its daemons by pid.
func startSlurm(t *testing.T, bin string) *slurm {
	t.Helper()
	dir, err := os.MkdirTemp("", "mcpt-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	s := &slurm{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	t.Cleanup(func() { s.stop(t); os.RemoveAll(dir) })
	for _, d := range []string{"munge", "state", "spool", "work"} {
		os.MkdirAll(filepath.Join(dir, d), 0o700)
	}
	m := filepath.Join(dir, "munge")
	s.run(t, "mungekey", "-c", "-k", filepath.Join(m, "key"))
	s.pids = append(s.pids, filepath.Join(m, "pid"))
	s.run(t, "munged", "-f", "--key-file="+filepath.Join(m, "key"), "--socket="+filepath.Join(m, "sock"),
		"--pid-file="+filepath.Join(m, "pid"), "--log-file="+filepath.Join(m, "log"), "--seed-file="+filepath.Join(m, "seed"))
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	conf := fmt.Sprintf(`ClusterName=mcpt
SlurmctldHost=%[2]s(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[1]s/munge/sock
CredType=cred/munge
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/slurmd.pid
SlurmctldLogFile=%[1]s/slurmctld.log
SlurmdLogFile=%[1]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MinJobAge=3600
KillWait=30
SlurmdParameters=config_overrides
NodeName=%[2]s NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=%[2]s Default=YES MaxTime=INFINITE State=UP
`, dir, host, freePort(t), freePort(t))
	os.WriteFile(s.conf, []byte(conf), 0o644)
	s.env = append(os.Environ(), "SLURM_CONF="+s.conf, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	s.pids = append(s.pids, filepath.Join(dir, "slurmctld.pid"))
	s.run(t, "slurmctld", "-f", s.conf)
	s.pids = append(s.pids, filepath.Join(dir, "slurmd.pid"))
	s.run(t, "slurmd", "-f", s.conf)
	for i := 0; ; i++ {
		out, _ := s.cmd("sinfo", "-h", "-o", "%T").Output()
		if st := strings.TrimSpace(string(out)); st == "idle" {
			break
		} else if i > 600 {
			t.Fatalf("the node is %q after a minute", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return s
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (s *slurm) cmd(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env, c.Dir = s.env, filepath.Join(s.dir, "work")
	return c
}

// run runs a command of the cluster, failing the test if it fails; it
// returns its output.
func (s *slurm) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := s.cmd(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// stop stops the daemons by the pids they wrote, slurmd first.
func (s *slurm) stop(t *testing.T) {
	for _, p := range slices.Backward(s.pids) {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 1 {
			continue
		}
		syscall.Kill(pid, syscall.SIGTERM)
		for i := 0; i < 300 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			t.Logf("%s (pid %d) still runs after 30 s: killed", filepath.Base(p), pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

var taskRE = regexp.MustCompile(`(?:ArrayTaskId=(\S+) .*)?JobState=(\S+) .*Restarts=(\d+) .*ExitCode=(\S+)`)

// states returns "TASK STATE Restarts=N ExitCode=X" for each task of job
// (one line for a job that is not an array), ordered by task.
func (s *slurm) states(t *testing.T, job string) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(s.run(t, "scontrol", "show", "job", "-o", job), "\n") {
		if m := taskRE.FindStringSubmatch(l); m != nil {
			lines = append(lines, fmt.Sprintf("task %s %s Restarts=%s ExitCode=%s", m[1], m[2], m[3], m[4]))
		}
	}
	slices.Sort(lines)
	return lines
}

// wait waits until no task of job is pending or running, and returns the
// states.
func (s *slurm) wait(t *testing.T, job string) []string {
	t.Helper()
	for i := 0; ; i++ {
		st := s.states(t, job)
		busy := slices.ContainsFunc(st, func(l string) bool {
			return strings.Contains(l, " PENDING ") || strings.Contains(l, " RUNNING ") ||
				strings.Contains(l, " REQUEUED ") || strings.Contains(l, " COMPLETING ") || strings.Contains(l, " CONFIGURING ")
		})
		if !busy && len(st) > 0 {
			return st
		}
		if i > 6000 {
			t.Fatalf("job %s still busy after 10 minutes: %v", job, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitJournal waits until the journal of out holds a few test cases.
func waitJournal(t *testing.T, out string) {
	t.Helper()
	for i := 0; ; i++ {
		b, _ := os.ReadFile(filepath.Join(out, "journal.jsonl"))
		if strings.Count(string(b), "\n") > 3 {
			return
		}
		if i > 30000 {
			t.Fatalf("%s journaled nothing in 5 minutes", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSlurm runs the shipped array script and merge job on a single-node
// Slurm cluster brought up here: task 1 is requeued and task 2 stopped
// with scancel --full --signal=TERM while they run; the merge refuses the
// interrupted shard; task 2 run again as a one-task array resumes from its
// journal; the merge job then gives the findings of the unsharded run.
func TestSlurm(t *testing.T) {
	testtier.Tools(t, "apt-get install slurm-wlm munge", "mungekey", "munged", "slurmctld", "slurmd", "sbatch", "scontrol", "scancel", "sinfo")
	if os.Geteuid() != 0 {
		t.Skip("the cluster's daemons run as root here")
	}
	bin := buildTools(t)
	s := startSlurm(t, bin)
	work := filepath.Join(s.dir, "work")
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	os.WriteFile(filepath.Join(work, "mcpt.yaml"), []byte(strings.Join([]string{
		"transpiler:",
		`  command: [sh, -c, 'sleep 0.05; exec cllc --fault sorted-resets "$0" -o "$1"', '{input}', '{outdir}']`,
		"seeds: {files: ['" + examples + "/cll/*.cll']}",
		"relations: {files: ['" + examples + "/cll/relations/*.yaml']}",
	}, "\n")+"\n"), 0o644)
	campaign := []string{"-c", "mcpt.yaml", "--seed", "7", "--max-cases", "120", "--max-spots", "1", "--workers", "1"}
	array, merge := filepath.Join(examples, "slurm", "mcpt-array.sbatch"), filepath.Join(examples, "slurm", "mcpt-merge.sbatch")

	whole := s.cmd(filepath.Join(bin, "mcpt"), append([]string{"run", "-q", "-o", "whole"}, campaign...)...)
	if out, err := whole.CombinedOutput(); procExit(err) != 1 {
		t.Fatalf("unsharded run: %v\n%s", err, out)
	}

	job := s.run(t, "sbatch", append([]string{"--parsable", "--array=0-3", "--cpus-per-task=1", array}, campaign...)...)
	waitJournal(t, filepath.Join(work, "out", "shard-1"))
	waitJournal(t, filepath.Join(work, "out", "shard-2"))
	s.run(t, "scontrol", "requeue", job+"_1")
	s.run(t, "scancel", "--full", "--signal=TERM", job+"_2")
	// A requeued task waits two minutes before it starts again; no need.
	// But slurmd refuses to launch a job it is still killing ("already
	// killed, do not launch batch job"): the first run must have ended,
	// and slurmd had a moment to forget it.
	for i := 0; i < 600; i++ {
		if b, _ := os.ReadFile(filepath.Join(work, "mcpt-"+job+"_1.log")); strings.Contains(string(b), "interrupted: the campaign is incomplete") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	// If slurmd still refused it, the task ends FAILED at once with nothing
	// run: requeue it again (at most twice more).
	logged := func() string {
		b, _ := os.ReadFile(filepath.Join(s.dir, "slurmd.log"))
		return string(b)
	}
	for try, seen := 0, len(logged()); ; try++ {
		for i := 0; i < 600; i++ {
			if st := s.states(t, job+"_1"); len(st) == 1 && strings.Contains(st[0], " PENDING ") {
				s.run(t, "scontrol", "update", "JobId="+job+"_1", "StartTime=now")
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		st := s.wait(t, job+"_1")
		l := logged()
		if try == 2 || len(st) != 1 || !strings.Contains(st[0], " FAILED ") || !strings.Contains(l[min(seen, len(l)):], "do not launch batch job") {
			break
		}
		t.Logf("slurmd refused to launch the requeued task 1 (%s): requeued again", st[0])
		seen = len(l)
		time.Sleep(3 * time.Second)
		s.run(t, "scontrol", "requeue", job+"_1")
	}
	states := s.wait(t, job)
	// Restarts counts the requeues above; one is the test's.
	for i, l := range states {
		if strings.HasPrefix(l, "task 1 COMPLETED Restarts=") {
			states[i] = "task 1 COMPLETED Restarts=1" + l[strings.Index(l, " ExitCode"):]
		}
	}
	t.Logf("array %s:\n  %s", job, strings.Join(states, "\n  "))
	want := []string{
		"task 0 COMPLETED Restarts=0 ExitCode=0:0",
		"task 1 COMPLETED Restarts=1 ExitCode=0:0",
		"task 2 FAILED Restarts=0 ExitCode=4:0",
		"task 3 COMPLETED Restarts=0 ExitCode=0:0",
	}
	if !slices.Equal(states, want) {
		t.Errorf("states %v, want %v", states, want)
		for i := range 4 {
			b, _ := os.ReadFile(filepath.Join(work, fmt.Sprintf("mcpt-%s_%d.log", job, i)))
			t.Logf("the log of task %d:\n%s", i, b)
		}
		if b, err := os.ReadFile(filepath.Join(s.dir, "slurmd.log")); err == nil {
			t.Logf("slurmd.log:\n%s", b[max(0, len(b)-6000):])
		}
	}
	// The log of the first run of task 1 is kept (--open-mode=append).
	if b, _ := os.ReadFile(filepath.Join(work, "mcpt-"+job+"_1.log")); !strings.Contains(string(b), "interrupted: the campaign is incomplete") {
		t.Errorf("the log of task 1 lost its first run:\n%s", b)
	}

	m1 := s.run(t, "sbatch", "--parsable", "--dependency=afterany:"+job, merge)
	st := s.wait(t, m1)
	t.Logf("merge %s after the array: %v", m1, st)
	if len(st) != 1 || !strings.Contains(st[0], "FAILED") || !strings.Contains(st[0], "ExitCode=2:0") {
		t.Errorf("the merge of an interrupted shard: %v, want FAILED with exit 2", st)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "mcpt-merge-"+m1+".log")); !strings.Contains(string(b), "(shard 2/4) was interrupted (exit 4)") {
		t.Errorf("the merge does not name the interrupted shard:\n%s", b)
	}

	again := s.run(t, "sbatch", append([]string{"--parsable", "--array=2", "--cpus-per-task=1", array}, campaign...)...)
	st = s.wait(t, again)
	t.Logf("task 2 again (%s, --array=2): %v", again, st)
	m2 := s.run(t, "sbatch", "--parsable", "--dependency=afterany:"+again, merge)
	st = s.wait(t, m2)
	t.Logf("merge %s: %v", m2, st)
	if len(st) != 1 || !strings.Contains(st[0], "COMPLETED") {
		b, _ := os.ReadFile(filepath.Join(work, "mcpt-merge-"+m2+".log"))
		t.Fatalf("merge: %v\n%s", st, b)
	}
	got, wantIDs := reportIDs(t, filepath.Join(work, "out", "all")), reportIDs(t, filepath.Join(work, "whole"))
	a, _ := result.Load(filepath.Join(work, "out", "all", "report.json"))
	b, _ := result.Load(filepath.Join(work, "whole", "report.json"))
	if !slices.Equal(got, wantIDs) || len(wantIDs) == 0 || a.TestCases != b.TestCases || a.TranspilerRuns != b.TranspilerRuns {
		t.Errorf("merged: %d test cases, %d findings; unsharded: %d test cases, %d findings", a.TestCases, len(got), b.TestCases, len(wantIDs))
	}
	t.Logf("merged = unsharded: %d test cases, %d transpiler runs, %d findings", b.TestCases, b.TranspilerRuns, len(wantIDs))

	// An array given as a list: each task refuses its shard (Slurm does
	// not tell a task its place in the list), so that no shard directory
	// exists, and the merge job's out/shard-* reaches mcpt as it is: merge
	// says that nothing matched it (before: "stat out/shard-*/report.json:
	// no such file or directory").
	list := filepath.Join(work, "list")
	os.MkdirAll(list, 0o755)
	os.Link(filepath.Join(work, "mcpt.yaml"), filepath.Join(list, "mcpt.yaml"))
	lj := s.run(t, "sbatch", append([]string{"--parsable", "--chdir=" + list, "--array=1,3,5", "--cpus-per-task=1", array}, campaign...)...)
	st = s.wait(t, lj)
	t.Logf("list array %s: %v", lj, st)
	for _, l := range st {
		if !strings.Contains(l, " FAILED ") || !strings.Contains(l, "ExitCode=2:0") {
			t.Errorf("a task of a list array: %s, want FAILED with exit 2", l)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(list, "mcpt-"+lj+"_3.log")); !strings.Contains(string(b), "an array given as a list") {
		t.Errorf("task 3 of the list array does not say why:\n%s", b)
	}
	m3 := s.run(t, "sbatch", "--parsable", "--chdir="+list, "--dependency=afterany:"+lj, merge)
	st = s.wait(t, m3)
	if len(st) != 1 || !strings.Contains(st[0], "FAILED") || !strings.Contains(st[0], "ExitCode=2:0") {
		t.Errorf("the merge of a list array: %v, want FAILED with exit 2", st)
	}
	if b, _ := os.ReadFile(filepath.Join(list, "mcpt-merge-"+m3+".log")); !strings.Contains(string(b), "out/shard-*: no such directory: no directory matched the pattern") {
		t.Errorf("the merge of a list array does not say that no shard matched:\n%s", b)
	}
}
