package cli

import (
	"strings"
	"testing"
)

// TestShardFromEnvironment: the environment of a Kubernetes pod, a Slurm
// array task or a CI job is read as the shard, each index from its base;
// an index without its count, or out of range, is refused naming the
// variable, never taken for the whole campaign.
func TestShardFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		flag string
		env  string // K=V K=V
		want string // shard, or "error: part of the message"
	}{
		{"", "", ""},
		{"", "JOB_COMPLETION_INDEX=2 MCPT_SHARD_COUNT=4", "2/4"},
		{"", "JOB_COMPLETION_INDEX=2", "error: JOB_COMPLETION_INDEX=2 is set but not MCPT_SHARD_COUNT"},
		{"", "MCPT_SHARD_COUNT=4", "error: MCPT_SHARD_COUNT is set but not JOB_COMPLETION_INDEX"},
		{"", "JOB_COMPLETION_INDEX=4 MCPT_SHARD_COUNT=4", "error: JOB_COMPLETION_INDEX=4, MCPT_SHARD_COUNT=4 (the index counted from 0)"},
		{"", "JOB_COMPLETION_INDEX=0 MCPT_SHARD_COUNT=1", ""},
		// Slurm: 0-based, 1-based and stepped arrays.
		{"", "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1", "3/4"},
		{"", "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_STEP=1", "3/4"},
		{"", "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_STEP=1", "0/4"},
		{"", "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=2", "2/4"},
		{"", "SLURM_ARRAY_TASK_ID=6 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=2", "3/4"},
		{"", "SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=2", "error: is not MIN + k×STEP"},
		{"", "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1", "error: is not MIN + k×STEP"},
		// Observed on Slurm 22.05: --array=0-8:3 gives MAX 6; --array=1,4,9
		// gives STEP 1 and MAX 9.
		{"", "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=3 SLURM_ARRAY_TASK_MAX=6", "1/3"},
		{"", "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_MAX=9", "error: an array given as a list (MIN 1, MAX 9, COUNT 3)"},
		{"", "SLURM_ARRAY_TASK_ID=2", "error: is set but not SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP"},
		{"", "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1", "error: is set but not SLURM_ARRAY_TASK_COUNT "},
		{"", "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=2 SLURM_ARRAY_TASK_STEP=1", "error: the only task of its array"},
		{"", "SLURM_ARRAY_TASK_ID=x SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=2 SLURM_ARRAY_TASK_STEP=1", "error: bad SLURM_ARRAY_TASK_ID=x"},
		// A sweep opts out; an explicit shard wins over the environment.
		{"none", "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1", ""},
		{"none", "SLURM_ARRAY_TASK_ID=2", ""},
		{"1/3", "SLURM_ARRAY_TASK_ID=2", "1/3"},
		{"1/0", "", "error: bad --shard"},
		{"3", "", "error: bad --shard"},
		{"-1/2", "", "error: bad --shard"},
		// CI systems.
		{"", "CI_NODE_INDEX=1 CI_NODE_TOTAL=3 CI_JOB_NAME=mcpt_1/3", "0/3"},
		{"", "CI_NODE_INDEX=3 CI_NODE_TOTAL=3 CI_JOB_NAME=mcpt_3/3", "2/3"},
		// GitLab's parallel: matrix: sets the same variables: its jobs are
		// named NAME: [VALUES], and are no shards.
		{"", "CI_NODE_INDEX=2 CI_NODE_TOTAL=2 CI_JOB_NAME=mcpt:_[8]", `error: CI_NODE_INDEX=2 and CI_NODE_TOTAL=2 are set, but the job is not one of GitLab's parallel: 2 (CI_JOB_NAME "mcpt: [8]" does not end in " 2/2")`},
		{"", "CI_NODE_INDEX=2 CI_NODE_TOTAL=2 CI_JOB_NAME=mcpt_1/2", `error: (CI_JOB_NAME "mcpt 1/2" does not end in " 2/2")`},
		{"", "CI_NODE_INDEX=2 CI_NODE_TOTAL=2", "error: CI_NODE_INDEX=2 and CI_NODE_TOTAL=2 are set, but the job is not one of GitLab's parallel: 2 (CI_JOB_NAME is not set)"},
		{"none", "CI_NODE_INDEX=2 CI_NODE_TOTAL=2 CI_JOB_NAME=mcpt:_[8]", ""},
		{"", "CI_NODE_INDEX=1 CI_NODE_TOTAL=1 CI_JOB_NAME=mcpt:_[8]", ""},
		{"", "CI_NODE_INDEX=0 CI_NODE_TOTAL=3", "error: CI_NODE_INDEX=0, CI_NODE_TOTAL=3 (the index counted from 1)"},
		{"", "CI_NODE_TOTAL=1", ""},
		{"", "CI_NODE_INDEX=2", "error: CI_NODE_INDEX=2 is set but not CI_NODE_TOTAL"},
		{"", "CIRCLE_NODE_INDEX=0 CIRCLE_NODE_TOTAL=1", ""},
		{"", "CIRCLE_NODE_INDEX=2 CIRCLE_NODE_TOTAL=3", "2/3"},
		{"", "CIRCLE_NODE_INDEX=2", "error: CIRCLE_NODE_INDEX=2 is set but not CIRCLE_NODE_TOTAL"},
		{"", "BUILDKITE_PARALLEL_JOB=0 BUILDKITE_PARALLEL_JOB_COUNT=2", "0/2"},
		{"", "BUILDKITE_PARALLEL_JOB=0", "error: BUILDKITE_PARALLEL_JOB=0 is set but not BUILDKITE_PARALLEL_JOB_COUNT"},
		// Two engines at once: which one is meant is not guessed.
		{"", "CIRCLE_NODE_INDEX=1 CIRCLE_NODE_TOTAL=2 CI_NODE_INDEX=1 CI_NODE_TOTAL=2 CI_JOB_NAME=mcpt_1/2", "error: both CI_NODE_INDEX and CIRCLE_NODE_INDEX give a shard"},
		{"", "CIRCLE_NODE_INDEX=0 CIRCLE_NODE_TOTAL=1 CI_NODE_INDEX=1 CI_NODE_TOTAL=2 CI_JOB_NAME=mcpt_1/2", "0/2"},
	} {
		env := map[string]string{}
		for _, kv := range strings.Fields(tc.env) {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = strings.ReplaceAll(v, "_", " ") // a space in a value is written _
		}
		s, err := shardFrom(tc.flag, func(k string) string { return env[k] })
		got := s.String()
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && err != nil && strings.Contains(err.Error(), strings.TrimPrefix(tc.want, "error: "))) {
			t.Errorf("--shard %q with %s: got %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
}
