export class Base {
  value: unknown = 1;
}
export class Derived extends Base {
  declare value: number;
}
