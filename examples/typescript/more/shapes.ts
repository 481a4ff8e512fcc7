// shapes.ts: abstract shapes and the concrete ones a drawing is made of.

export enum Fill {
  None,
  Solid,
  Hatched = 4,
}

export interface Style {
  fill: Fill;
  stroke?: string;
}

export abstract class Renderer {
  protected readonly scale: number = 1;
  abstract title(): string;

  abstract begin(width: number, height: number): void;

  end(): string {
    return this.title();
  }

  abstract get busy(): boolean;
}

export abstract class Shape {
  static count = 0;
  style: Style = { fill: Fill.None };
  abstract area(): number;

  constructor(public readonly id: string) {
    Shape.count++;
  }

  describe(): string {
    return `${this.id}: ${this.area()}`;
  }
}

export class Circle extends Shape {
  radius = 1;

  area(): number {
    return Math.PI * this.radius * this.radius;
  }
}

export class Canvas {
  shapes: Shape[] = [];
  width = 640;

  add(shape: Shape): void {
    this.shapes.push(shape);
  }

  get empty(): boolean {
    return this.shapes.length === 0;
  }
}
