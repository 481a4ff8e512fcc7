export abstract class Node {
  abstract readonly kind: number;
}
export class Leaf extends Node {
  get kind() { return 1; }
}
