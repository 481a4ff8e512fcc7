package cli

import (
	"os"
	"testing"
)

// TestShardFromEnvironment: the environment of a Kubernetes pod or a Slurm
// task is what mcpt reads as its shard.
func TestShardFromEnvironment(t *testing.T) {
	s, err := shardFrom("", func(k string) string {
		return map[string]string{"JOB_COMPLETION_INDEX": "2", "JOB_COMPLETIONS": "4"}[k]
	})
	if err != nil || s.Index != 2 || s.Count != 4 {
		t.Errorf("shard from a pod's environment: %+v %v", s, err)
	}
	if _, err := shardFrom("", func(k string) string {
		return map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}[k]
	}); err == nil {
		t.Error("task 4 of 4 accepted")
	}
	if _, err := shardFrom("1/0", os.Getenv); err == nil {
		t.Error("--shard 1/0 accepted")
	}
}
