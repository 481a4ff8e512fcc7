// Warehouse inventory: stock levels per site, reservations and restocking.
include "common.thrift"

namespace cpp inventory
namespace py inventory

const i32 MAX_BATCH = 500
const string DEFAULT_SITE = "central"
const double LOW_STOCK_RATIO = 0.15
const list<string> SITES = ["central", "north", "harbour"]

enum Unit {
  PIECE,
  BOX,
  PALLET = 10,
  KILOGRAM,
  LITRE,
}

enum StockState {
  IN_STOCK = 1,
  LOW = 2,
  OUT = 3,
  DISCONTINUED = 9,
}

/** One article as the catalogue knows it. */
struct Article {
  1: required common.Uuid id,
  2: required string name,
  3: optional string description,
  4: Unit unit = Unit.PIECE,
  5: i32 pack_size = 1,
  6: list<string> tags,
}

struct StockLevel {
  1: required common.Uuid article,
  2: string site = DEFAULT_SITE,
  3: i64 on_hand,
  4: i64 reserved,
  5: StockState state,
  6: optional common.Timestamp counted_at,
}

struct Reservation {
  1: common.Uuid id,
  2: common.Uuid article,
  3: i32 quantity,
  4: string customer,
  5: bool confirmed = false,
}

exception InsufficientStock {
  1: common.Uuid article,
  2: i64 requested,
  3: i64 available,
}

service Inventory {
  Article article(1: common.Uuid id) throws (1: common.NotFound nf),
  list<StockLevel> levels(1: common.Uuid article),
  Reservation reserve(1: common.Uuid article, 2: i32 quantity, 3: string customer)
    throws (1: InsufficientStock short, 2: common.NotFound nf),
  void release(1: common.Uuid reservation),
  oneway void recount(1: string site),
}
