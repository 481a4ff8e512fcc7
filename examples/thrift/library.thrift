// A lending library: books, copies, members and loans.
namespace cpp library
namespace py library

const i32 LOAN_DAYS = 21
const i32 MAX_LOANS = 8
const double LATE_FEE_PER_DAY = 0.25
const string OPENING_HOURS = "Mo-Fr 9-19"

enum Format {
  HARDCOVER = 1,
  PAPERBACK,
  EBOOK,
  AUDIO,
}

enum LoanState {
  ACTIVE,
  RETURNED,
  LATE,
  LOST = 5,
}

struct Book {
  1: required string isbn,
  2: required string title,
  3: list<string> authors,
  4: i16 year,
  5: Format format = Format.PAPERBACK,
  6: optional string series,
}

struct Copy {
  1: string isbn,
  2: i32 number,
  3: string shelf,
  4: bool reference_only,
}

struct Member {
  1: required i64 card,
  2: string name,
  3: optional string email,
  4: i32 max_loans = MAX_LOANS,
  5: double fees_due,
}

struct Loan {
  1: i64 card,
  2: string isbn,
  3: i32 copy,
  4: i64 lent_at,
  5: i64 due_at,
  6: LoanState state = LoanState.ACTIVE,
}

exception LoanRefused {
  1: string why,
  2: optional double fees_due,
}

service Library {
  Book lookup(1: string isbn),
  list<Copy> copies(1: string isbn),
  Loan lend(1: i64 card, 2: string isbn) throws (1: LoanRefused refused),
  void give_back(1: i64 card, 2: string isbn),
  double fees(1: i64 card),
  list<Loan> overdue(),
}
