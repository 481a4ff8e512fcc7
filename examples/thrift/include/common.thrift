// Types shared by several services of the example; seeds include it with
// `include "common.thrift"` and the wrapper passes -I include.
namespace cpp common
namespace py common

typedef i64 Timestamp
typedef string Uuid

enum Severity {
  DEBUG = 10,
  INFO = 20,
  WARNING = 30,
  ERROR = 40,
}

struct Page {
  1: i32 offset = 0,
  2: i32 limit = 50,
}

exception NotFound {
  1: string what,
  2: Uuid id,
}
