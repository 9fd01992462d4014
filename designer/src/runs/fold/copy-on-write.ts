/**
 * Copy-on-write containers for folding a batch of events into a view that is never mutated: the container
 * is copied on its first change in the batch, and each element on its first edit, so a batch of any size
 * copies each at most once.
 */
export class CowRecord<T extends object> {
  private copy: Record<string, T> | null = null;
  /** Keys whose element is already this batch's own (copied or new). */
  private readonly owned = new Set<string>();

  constructor(private readonly base: Readonly<Record<string, T>>) {}

  get(key: string): T | undefined {
    return (this.copy ?? this.base)[key];
  }

  /** The element to change in place (copied once per batch), or undefined when there is none. */
  edit(key: string): T | undefined {
    const current = this.get(key);
    if (current === undefined || this.owned.has(key)) return current;
    const copy = { ...current };
    this.own()[key] = copy;
    this.owned.add(key);
    return copy;
  }

  /** Puts a fresh element (owned by this batch from now on). */
  set(key: string, value: T): T {
    this.own()[key] = value;
    this.owned.add(key);
    return value;
  }

  get changed(): boolean {
    return this.copy !== null;
  }

  result(): Readonly<Record<string, T>> {
    return this.copy ?? this.base;
  }

  private own(): Record<string, T> {
    this.copy ??= { ...this.base };
    return this.copy;
  }
}

export class CowArray<T> {
  private copy: T[] | null = null;
  /** Index from which elements are this batch's own (pushed or copied). */
  private ownedFrom: number;
  private readonly ownedIndices = new Set<number>();

  constructor(private readonly base: readonly T[]) {
    this.ownedFrom = base.length;
  }

  get length(): number {
    return (this.copy ?? this.base).length;
  }

  at(index: number): T | undefined {
    return (this.copy ?? this.base)[index];
  }

  push(value: T): void {
    this.own().push(value);
  }

  /** The element at `index` to change in place (copied once per batch). */
  edit(index: number): T | undefined {
    const current = this.at(index);
    if (current === undefined || index >= this.ownedFrom || this.ownedIndices.has(index)) return current;
    const copy = { ...current } as T;
    this.own()[index] = copy;
    this.ownedIndices.add(index);
    return copy;
  }

  result(): readonly T[] {
    return this.copy ?? this.base;
  }

  private own(): T[] {
    if (this.copy === null) {
      this.copy = this.base.slice();
      this.ownedFrom = this.base.length;
    }
    return this.copy;
  }
}
