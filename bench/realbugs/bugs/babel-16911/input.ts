export namespace Tags {
  export const enum Kind {
    Plain = 0,
    Bold = 1,
  }
}
