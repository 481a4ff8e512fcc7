// legacy.ts: a script (no import, no export), whose names are global as in
// libraries written before ES modules; add-export-assignment makes it a
// CommonJS module with `export =`.
namespace Legacy {
  export const version = 3;

  export enum Level {
    Low,
    High = 4,
  }

  export function greet(name: string): string {
    return "hello " + name;
  }

  export class Counter {
    count = 0;

    bump(): number {
      return ++this.count;
    }
  }
}
