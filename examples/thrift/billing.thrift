// Billing: invoices, line items and payments for a subscription business.
namespace cpp billing
namespace py billing

typedef i64 Cents

const i32 PAYMENT_TERMS_DAYS = 30
const string CURRENCY = "EUR"
const double VAT_RATE = 0.21
const bool ROUND_HALF_UP = true

enum InvoiceStatus {
  DRAFT,
  ISSUED,
  PAID,
  OVERDUE,
  CANCELLED,
}

enum PaymentMethod {
  CARD = 1,
  TRANSFER,
  DIRECT_DEBIT,
  VOUCHER = 7,
}

struct LineItem {
  1: required string sku,
  2: string label,
  3: i32 quantity = 1,
  4: Cents unit_price,
  5: double discount = 0.0,
}

struct Invoice {
  1: required i64 number,
  2: required string customer,
  3: InvoiceStatus status = InvoiceStatus.DRAFT,
  4: list<LineItem> items,
  5: Cents total,
  6: optional string note,
  7: i64 issued_at,
  8: i64 due_at,
}

struct Payment {
  1: i64 invoice,
  2: Cents amount,
  3: PaymentMethod method,
  4: optional string reference,
}

union Adjustment {
  1: Cents credit,
  2: Cents charge,
  3: string waiver,
}

exception BillingError {
  1: i32 code,
  2: string message,
}

service Billing {
  Invoice draft(1: string customer, 2: list<LineItem> items) throws (1: BillingError err),
  Invoice issue(1: i64 number) throws (1: BillingError err),
  void pay(1: Payment payment) throws (1: BillingError err),
  Invoice adjust(1: i64 number, 2: Adjustment adjustment),
  list<Invoice> overdue(1: i32 days),
  Cents balance(1: string customer),
}
