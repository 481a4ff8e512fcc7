interface Options {
  verbose: boolean;
}
type Level = number;
export { Options, Level };
