// Route planning for delivery vans: points, legs and plans.
include "common.thrift"

namespace cpp routing
namespace py routing

typedef double Meters
typedef i32 Seconds

const Meters MAX_LEG = 250000.0
const Seconds SERVICE_TIME = 300
const string ENGINE = "astar"

enum Vehicle {
  BIKE,
  VAN,
  TRUCK,
}

struct Point {
  1: double lat,
  2: double lon,
}

struct Box {
  1: Point south_west,
  2: Point north_east,
}

struct Stop {
  1: required string id,
  2: required Point at,
}

struct Leg {
  1: Point from_point,
  2: Point to_point,
  3: Meters distance,
  4: Seconds duration,
  5: optional Vehicle vehicle,
}

struct Traffic {
  1: double factor = 1.0,
  2: i32 incidents,
  3: optional Seconds delay,
}

struct Corridor {
  1: Point entry,
  2: Point exit,
  3: Meters width,
}

struct Plan {
  1: list<Leg> legs,
  2: map<string, Seconds> eta,
  3: set<string> skipped,
}

union Target {
  1: Point point,
  2: string address,
}

service Router {
  Plan plan(1: list<Stop> stops, 2: Vehicle vehicle) throws (1: common.NotFound nf),
  Meters distance(1: Point a, 2: Point b),
  Box bounds(1: Plan plan),
}
