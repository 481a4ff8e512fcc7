// A job scheduler: jobs with schedules, runs and their outcomes.
include "common.thrift"

namespace cpp scheduler
namespace py scheduler

typedef string JobId

const i32 DEFAULT_RETRIES = 3
const i64 MAX_RUNTIME_SECONDS = 86400
const string DEFAULT_QUEUE = "batch"

enum Priority {
  LOW = -1,
  NORMAL,
  HIGH,
  URGENT = 10,
}

enum RunState {
  QUEUED,
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  TIMED_OUT,
}

struct Schedule {
  1: optional string cron,
  2: optional i32 every_seconds,
  3: string timezone = "UTC",
}

struct Job {
  1: required JobId id,
  2: required string command,
  3: string queue = DEFAULT_QUEUE,
  4: Priority priority = Priority.NORMAL,
  5: Schedule schedule,
  6: i32 retries = DEFAULT_RETRIES,
  7: map<string, string> env,
  8: optional i64 max_runtime,
}

struct Run {
  1: JobId job,
  2: i64 number,
  3: RunState state,
  4: common.Timestamp started,
  5: optional common.Timestamp finished,
  6: optional i32 exit_code,
  7: list<string> log_tail,
}

exception JobError {
  1: JobId job,
  2: string reason,
}

service Scheduler {
  JobId submit(1: Job job) throws (1: JobError err),
  void cancel(1: JobId job) throws (1: JobError err, 2: common.NotFound nf),
  list<Run> runs(1: JobId job, 2: common.Page page),
  Run run_now(1: JobId job) throws (1: JobError err),
  map<RunState, i32> summary(),
}
