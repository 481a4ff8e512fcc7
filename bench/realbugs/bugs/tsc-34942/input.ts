export class Point {
  constructor(public readonly x: number) {}
}
