// shared-types.d.ts: declarations another module of a program holds, which
// add-imported-member imports (`import { Priority as A } from
// "shared-types"`, found through tsc's --baseUrl). A declaration file: tsc
// reads it and writes nothing for it, so the output tree holds the
// input's files alone.
export declare enum Priority {
    Low = 10,
    High = 40
}
export declare const enum Mode {
    Read = 1,
    Write = 2
}
export interface Vector {
    readonly x: number;
    readonly y: number;
}
export declare class Clock {
    now(): number;
}
export type Handler = (event: string) => void;
