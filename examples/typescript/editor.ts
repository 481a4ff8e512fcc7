// editor.ts: commands and key bindings of a text editor.

export enum Mode {
  Normal,
  Insert,
  Visual,
  Command,
}

export enum Modifier {
  None = 0,
  Shift = 1,
  Ctrl = 2,
  Alt = 4,
  Meta = 8,
}

export enum CommandId {
  Save = "editor.save",
  Undo = "editor.undo",
  Redo = "editor.redo",
  Find = "editor.find",
}

export const enum Direction {
  Up,
  Down,
  Left,
  Right,
}

export const TAB_WIDTH = 4;
export const THEME = "solarized";
export const WORD_SEPARATORS = "`~!@#$%^&*()-=+[{]}|;:'\",.<>/?";

export interface Position {
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface KeyBinding {
  key: string;
  modifiers: Modifier;
  command: CommandId;
  when?: Mode;
  args?: unknown[];
}

export interface TextBuffer {
  readonly uri: string;
  readonly version: number;
  lineCount: number;
  getText(range?: Range): string;
  applyEdit(range: Range, text: string): boolean;
  onDidChange?: (version: number) => void;
}

export class Cursor {
  line = 0;
  column = 0;
  preferredColumn?: number;

  move(direction: Direction, count = 1): void {
    if (direction === Direction.Up) {
      this.line = Math.max(0, this.line - count);
    } else if (direction === Direction.Down) {
      this.line += count;
    }
  }
}

export function modeName(mode: Mode): string {
  return Mode[mode].toLowerCase();
}
