export var OrderStatus;
(function (OrderStatus) {
    OrderStatus[OrderStatus["Draft"] = 0] = "Draft";
    OrderStatus[OrderStatus["Placed"] = 1] = "Placed";
    OrderStatus[OrderStatus["Paid"] = 2] = "Paid";
    OrderStatus[OrderStatus["Shipped"] = 10] = "Shipped";
    OrderStatus[OrderStatus["Delivered"] = 11] = "Delivered";
    OrderStatus[OrderStatus["Cancelled"] = -1] = "Cancelled";
})(OrderStatus || (OrderStatus = {}));
export var PaymentMethod;
(function (PaymentMethod) {
    PaymentMethod["Card"] = "card";
    PaymentMethod["Transfer"] = "transfer";
    PaymentMethod["Voucher"] = "voucher";
})(PaymentMethod || (PaymentMethod = {}));
export const MAX_LINES = 50;
export const CURRENCY = "EUR";
export const VAT_RATE = 0.21;
export const DEFAULT_STATUS = OrderStatus.Draft;
export class OrderBook {
    shop;
    orders = new Map();
    lastChanged;
    static PAGE_SIZE = 20;
    constructor(shop) {
        this.shop = shop;
    }
    add(order) {
        this.orders.set(order.id, order);
        this.lastChanged = new Date(0);
    }
    find(filter) {
        return [...this.orders.values()].filter(filter);
    }
    get size() {
        return this.orders.size;
    }
}
export function isOpen(order) {
    return order.status !== OrderStatus.Delivered && order.status !== OrderStatus.Cancelled;
}
