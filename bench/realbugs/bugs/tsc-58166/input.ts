export class Range {
  constructor(public start: number = 0, public end: number) {}
}
