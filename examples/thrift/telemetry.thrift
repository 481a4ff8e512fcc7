// Telemetry from field devices: readings, alarms and device configuration.
include "common.thrift"

namespace cpp telemetry
namespace py telemetry

const i32 SAMPLE_PERIOD_MS = 250
const i16 MAX_CHANNELS = 64
const string PROTOCOL_VERSION = "2.4"
const map<string, i32> DEFAULT_THRESHOLDS = {"temperature": 80, "pressure": 12}

enum Quantity {
  TEMPERATURE = 1,
  PRESSURE,
  HUMIDITY,
  FLOW,
  VOLTAGE = 20,
  CURRENT,
}

enum DeviceMode {
  OFF,
  STANDBY,
  ACTIVE,
  MAINTENANCE = 8,
}

struct Reading {
  1: required string device,
  2: required Quantity quantity,
  3: double value,
  4: common.Timestamp at,
  5: optional string unit,
}

union Payload {
  1: Reading reading,
  2: list<Reading> batch,
  3: string raw,
}

struct Alarm {
  1: string device,
  2: common.Severity severity = common.Severity.WARNING,
  3: string text,
  4: i64 raised_at,
  5: optional i64 cleared_at,
  6: bool acknowledged,
}

struct DeviceConfig {
  1: required string device,
  2: DeviceMode mode = DeviceMode.STANDBY,
  3: i32 period_ms = SAMPLE_PERIOD_MS,
  4: map<string, i32> thresholds,
  5: set<Quantity> channels,
  6: optional binary firmware,
}

service Collector {
  void push(1: Payload payload),
  list<Alarm> alarms(1: string device, 2: bool only_open),
  DeviceConfig config(1: string device) throws (1: common.NotFound nf),
  bool configure(1: DeviceConfig config),
  i32 ping(),
}
