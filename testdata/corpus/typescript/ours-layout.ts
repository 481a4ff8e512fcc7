// Written for mcpt: a layout seen in real projects (one-line enums, the
// brace on the next line, generic classes, comments between members, tabs).
export enum TagType { String, Double, Bool }

export interface Tag<T>
{
	/** The key. */
	key: string;
	// Its value.
	value: T;
	kind?: TagType
}

export class Registry<K extends string, V>
{
	private readonly items = new Map<K, V>();

	/** Adds an item. */
	set(key: K, value: V): this { this.items.set(key, value); return this; }

	get(key: K): V | undefined
	{
		return this.items.get(key);
	}
}

export type Pair<A, B> = [A, B];
export const enum Flags { None = 0, A = 1 << 0, B = 1 << 1 }
