// settings.ts: the settings of an editor. Object types written out in a
// type alias, in annotations and in return types, which the declaration
// file prints a member a line.

export enum Theme {
  Light,
  Dark,
  Contrast,
}

export type Preferences = {
  theme: Theme;
  fontSize: number;
  onChange?: (key: string) => void;
};

export interface Store {
  load(): { version: number; values: Preferences };
}

export function defaults(): { theme: Theme; fontSize: number; label(size: number): string } {
  return { theme: Theme.Light, fontSize: 12, label: (size: number) => size + "px" };
}

export const limits: { min: number; max: number } = { min: 8, max: 32 };

export class Settings {
  private values: Preferences;
  static readonly STEP = 2;

  constructor(values: Preferences) {
    this.values = values;
  }

  get fontSize(): number {
    return this.values.fontSize;
  }

  grow(): void {
    this.values.fontSize = Math.min(limits.max, this.values.fontSize + Settings.STEP);
  }

  reset(): void {
    this.values = { ...this.values, ...defaults() };
  }
}
