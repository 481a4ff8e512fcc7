// orders.ts: the order book of a small shop.

/** Where an order is in its life. */
export enum OrderStatus {
  Draft,
  Placed,
  Paid,
  Shipped = 10,
  Delivered,
  Cancelled = -1,
}

export enum PaymentMethod {
  Card = "card",
  Transfer = "transfer",
  Voucher = "voucher",
}

export const MAX_LINES = 50;
export const CURRENCY = "EUR";
export const VAT_RATE = 0.21;

export interface Money {
  amount: number;
  currency: string;
}

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPrice: Money;
  discount?: number;
  note?: string;
}

export interface Order {
  readonly id: string;
  customerId: string;
  status: OrderStatus;
  lines: OrderLine[];
  payment?: PaymentMethod;
  placedAt?: Date;
  total(): Money;
}

export type OrderFilter = (order: Order) => boolean;

export const DEFAULT_STATUS = OrderStatus.Draft;

export class OrderBook {
  private readonly orders = new Map<string, Order>();
  lastChanged?: Date;
  declare zqoekjay: string;
  static readonly PAGE_SIZE = 20;

  constructor(public readonly shop: string) {}

  add(order: Order): void {
    this.orders.set(order.id, order);
    this.lastChanged = new Date(0);
  }

  find(filter: OrderFilter): Order[] {
    return [...this.orders.values()].filter(filter);
  }

  get size(): number {
    return this.orders.size;
  }
}

export function isOpen(order: Order): boolean {
  return order.status !== OrderStatus.Delivered && order.status !== OrderStatus.Cancelled;
}
