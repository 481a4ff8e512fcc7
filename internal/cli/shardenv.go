package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/engine"
)

// noShard is the --shard value that runs the whole campaign whatever the
// environment says: a parameter sweep run as an array of tasks.
const noShard = "none"

// shardVar is a pair of variables by which an engine gives each of its
// tasks an index and the number of tasks: a shard.
type shardVar struct {
	engine       string
	index, count string
	base         int // the index of the first task
	// check, when set, refuses a shard that the variables give but the
	// engine did not mean as one.
	check func(getenv func(string) string, index, count string) error
}

// shardVars are the engines read for a shard, besides Slurm (slurmShard).
// Kubernetes gives only the index of an Indexed Job: its count is mcpt's
// own variable, set in the pod's env.
var shardVars = []shardVar{
	{"a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "MCPT_SHARD_COUNT", 0, nil},
	{"GitLab CI (parallel)", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1, gitlabParallel},
	{"CircleCI (parallelism)", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, nil},
	{"Buildkite (parallelism)", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0, nil},
}

// gitlabParallel refuses GitLab's CI_NODE_INDEX and CI_NODE_TOTAL in a job
// that is not one of `parallel: N`. GitLab sets them in the jobs of
// `parallel: matrix:` as well, where each job is usually a campaign of its
// own (a sweep of seeds); it names the jobs of `parallel: N` "NAME I/N"
// and those of a matrix "NAME: [VALUES]". mcpt takes the shard only when
// the job's name says `parallel: N`, and otherwise asks.
func gitlabParallel(getenv func(string) string, index, count string) error {
	name := getenv("CI_JOB_NAME")
	if strings.HasSuffix(name, " "+index+"/"+count) {
		return nil
	}
	what := fmt.Sprintf("CI_JOB_NAME %q does not end in \" %s/%s\"", name, index, count)
	if name == "" {
		what = "CI_JOB_NAME is not set"
	}
	return fmt.Errorf("CI_NODE_INDEX=%s and CI_NODE_TOTAL=%s are set, but the job is not one of GitLab's parallel: %s (%s): GitLab sets them for parallel: matrix: too, "+
		"whose jobs are not shards of one campaign: give --shard none for a matrix (each job a campaign of its own), or --shard I/N (counted from 0)",
		index, count, count, what)
}

// errShardHelp ends every refusal of a shard from the environment.
const errShardHelp = "give --shard I/N (counted from 0), or --shard none to run the whole campaign in each task"

// shardFrom parses --shard ("i/n" or "none"), or, without it, reads the
// shard from the environment of the engine running mcpt. An index without
// its count, or one out of range, is an error naming the variables: mcpt
// never falls back to the whole campaign when an engine meant a shard.
func shardFrom(flag string, getenv func(string) string) (engine.Shard, error) {
	switch flag {
	case noShard:
		return engine.Shard{}, nil
	case "":
		return shardFromEnv(getenv)
	}
	i, n, ok := strings.Cut(flag, "/")
	ii, err1 := strconv.Atoi(strings.TrimSpace(i))
	nn, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || nn < 1 || ii < 0 || ii >= nn {
		return engine.Shard{}, fmt.Errorf("bad --shard %q: want I/N with 0 <= I < N, or none", flag)
	}
	return engine.Shard{Index: ii, Count: nn}, nil
}

// shardFromEnv reads the shard from the first engine whose index variable
// is set; two engines giving a shard at once is an error.
func shardFromEnv(getenv func(string) string) (engine.Shard, error) {
	var found []string
	var shard engine.Shard
	readers := []func() (string, engine.Shard, error){func() (string, engine.Shard, error) {
		s, err := slurmShard(getenv)
		return "SLURM_ARRAY_TASK_ID", s, err
	}}
	for _, v := range shardVars {
		readers = append(readers, func() (string, engine.Shard, error) {
			s, err := v.read(getenv)
			return v.index, s, err
		})
	}
	for _, read := range readers {
		name, s, err := read()
		if err != nil {
			return engine.Shard{}, err
		}
		if s.Count > 1 {
			found = append(found, name)
			shard = s
		}
	}
	if len(found) > 1 {
		return engine.Shard{}, fmt.Errorf("both %s and %s give a shard: %s", found[0], found[1], errShardHelp)
	}
	return shard, nil
}

// read returns the shard the variables give; the zero Shard when the index
// is not set or the count is 1.
func (v shardVar) read(getenv func(string) string) (engine.Shard, error) {
	is := getenv(v.index)
	if is == "" {
		if getenv(v.count) != "" && v.count == "MCPT_SHARD_COUNT" {
			return engine.Shard{}, fmt.Errorf("MCPT_SHARD_COUNT is set but not %s: %s", v.index, errShardHelp)
		}
		return engine.Shard{}, nil
	}
	ns := getenv(v.count)
	if ns == "" {
		hint := ""
		if v.count == "MCPT_SHARD_COUNT" {
			hint = " (Kubernetes sets only the index: set MCPT_SHARD_COUNT to the Job's completions in the pod's env)"
		}
		return engine.Shard{}, fmt.Errorf("%s=%s is set but not %s%s: %s", v.index, is, v.count, hint, errShardHelp)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	i -= v.base
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return engine.Shard{}, fmt.Errorf("bad shard from %s: %s=%s, %s=%s (the index counted from %d): %s",
			v.engine, v.index, is, v.count, ns, v.base, errShardHelp)
	}
	if v.check != nil && n > 1 {
		if err := v.check(getenv, strings.TrimSpace(is), strings.TrimSpace(ns)); err != nil {
			return engine.Shard{}, err
		}
	}
	return engine.Shard{Index: i, Count: n}, nil
}

// slurmVars are the variables of a task of a Slurm job array that its
// shard is made of: shard (ID-MIN)/STEP of COUNT, so that arrays counted
// from 1 (--array=1-4) or stepped (--array=0-6:2) work.
var slurmVars = []string{"SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"}

// slurmShard returns the shard of a task of a Slurm job array.
func slurmShard(getenv func(string) string) (engine.Shard, error) {
	ids := getenv("SLURM_ARRAY_TASK_ID")
	if ids == "" {
		return engine.Shard{}, nil
	}
	var missing []string
	vals := map[string]int{}
	for _, k := range append([]string{"SLURM_ARRAY_TASK_ID"}, slurmVars...) {
		s := getenv(k)
		if s == "" {
			missing = append(missing, k)
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return engine.Shard{}, fmt.Errorf("bad %s=%s: not a number: %s", k, s, errShardHelp)
		}
		vals[k] = n
	}
	if len(missing) > 0 {
		return engine.Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%s is set but not %s (a Slurm older than 17.11?): %s",
			ids, strings.Join(missing, ", "), errShardHelp)
	}
	id, count, lo, step := vals["SLURM_ARRAY_TASK_ID"], vals["SLURM_ARRAY_TASK_COUNT"], vals["SLURM_ARRAY_TASK_MIN"], vals["SLURM_ARRAY_TASK_STEP"]
	if count == 1 {
		return engine.Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is the only task of its array: to run one task of a sharded campaign again, "+
			"--resume its output directory (the shard is in its journal) or give its --shard; --shard none runs the whole campaign", id)
	}
	// Slurm gives a list (--array=1,4,9) step 1 and its highest task as MAX.
	if hi, err := strconv.Atoi(strings.TrimSpace(getenv("SLURM_ARRAY_TASK_MAX"))); err == nil && step >= 1 && hi != lo+(count-1)*step {
		return engine.Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is a task of an array given as a list (MIN %d, MAX %d, COUNT %d): "+
			"the tasks are not one shard each: %s", id, lo, hi, count, errShardHelp)
	}
	if step < 1 || id < lo || (id-lo)%step != 0 || (id-lo)/step >= count {
		return engine.Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is not MIN + k×STEP with k < COUNT (MIN %d, STEP %d, COUNT %d): "+
			"an array given as a list (--array=1,4,9) is not one shard per task: %s", id, lo, step, count, errShardHelp)
	}
	return engine.Shard{Index: (id - lo) / step, Count: count}, nil
}
