export class Title {
  readonly text?: string;
}
