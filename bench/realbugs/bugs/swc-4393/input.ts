namespace Limits {
  export const max = 10;
}
export { Limits };
