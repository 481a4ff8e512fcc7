// game.ts: entities and rules of a tile-based game.

export enum Tile {
  Empty,
  Wall,
  Water,
  Lava = 9,
  Exit = 20,
}

export enum Team {
  Red = "red",
  Blue = "blue",
  Neutral = "neutral",
}

export enum Difficulty {
  Easy = 1,
  Normal,
  Hard,
  Nightmare,
}

export const BOARD_WIDTH = 32;
export const BOARD_HEIGHT = 24;
export const GRAVITY = 9.81;
export const GAME_TITLE = "Tiles";
export const DEFAULT_DIFFICULTY = Difficulty.Normal;

export interface Point {
  x: number;
  y: number;
}

export interface Stats {
  health: number;
  speed: number;
  armour?: number;
  luck?: number;
}

export interface Entity {
  readonly id: number;
  position: Point;
  team: Team;
  stats: Stats;
  label?: string;
  update(dt: number): void;
}

export interface Level {
  name: string;
  tiles: Tile[][];
  spawn: Point;
  par?: number;
}

export type Rule = (entity: Entity, tile: Tile) => boolean;

export class World {
  entities: Entity[] = [];
  tick = 0;
  paused?: boolean;
  readonly difficulty: Difficulty;

  constructor(difficulty: Difficulty = DEFAULT_DIFFICULTY) {
    this.difficulty = difficulty;
  }

  step(dt: number): void {
    this.tick++;
    for (const e of this.entities) {
      e.update(dt);
    }
  }
}

export function blocks(tile: Tile): boolean {
  return tile === Tile.Wall || tile === Tile.Lava;
}
