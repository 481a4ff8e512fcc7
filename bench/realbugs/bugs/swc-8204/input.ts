const enum Level {
  Low = 1,
  High = 2,
}
export default Level;
