export declare enum OrderStatus {
    Draft = 0,
    Placed = 1,
    Paid = 2,
    Shipped = 10,
    Delivered = 11,
    Cancelled = -1
}
export declare enum PaymentMethod {
    Card = "card",
    Transfer = "transfer",
    Voucher = "voucher"
}
export declare const MAX_LINES = 50;
export declare const CURRENCY = "EUR";
export declare const VAT_RATE = 0.21;
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
export declare const DEFAULT_STATUS = OrderStatus.Draft;
export declare class OrderBook {
    readonly shop: string;
    private readonly orders;
    lastChanged?: Date;
    static readonly PAGE_SIZE = 20;
    constructor(shop: string);
    add(order: Order): void;
    find(filter: OrderFilter): Order[];
    get size(): number;
}
export declare function isOpen(order: Order): boolean;
