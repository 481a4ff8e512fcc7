export class A {
  static foo = 123;
  static {
    console.log(this.foo);
  }
}
