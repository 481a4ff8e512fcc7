export enum Mode {
  'Read' = 'r',
  'Write' = 'w',
}
