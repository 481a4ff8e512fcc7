export enum Bound {
  Low = -Infinity,
  Zero = 0,
}
