import type { ToolMock } from "@waddle/protocol";

/** What a matched call is served. */
export interface MatchedMock {
  mock: ToolMock;
  /** The mock's index in the case's `mocks`. */
  index: number;
}

/**
 * Serves a case's recorded tool results: each call takes the first unused mock of its tool whose args are
 * equal (compared as JSON values, key order ignored) or `"any"`, so that mocks are matched in order and a
 * tool called twice with the same args gets its two recorded results in turn. Kept apart from the fork's
 * record matcher so that the two can be unified later.
 */
export class ToolMockMatcher {
  private readonly used: boolean[];

  constructor(private readonly mocks: readonly ToolMock[]) {
    this.used = mocks.map(() => false);
  }

  /** The next mock for this call, marked used; undefined when none is left that matches. */
  take(tool: string, args: unknown): MatchedMock | undefined {
    for (let index = 0; index < this.mocks.length; index += 1) {
      const mock = this.mocks[index]!;
      if (this.used[index] || mock.tool !== tool) continue;
      if (mock.args !== "any" && !isJsonEqual(mock.args, args)) continue;
      this.used[index] = true;
      return { mock, index };
    }
    return undefined;
  }

  /** The mocks no call took. */
  getUnused(): ToolMock[] {
    return this.mocks.filter((_, index) => !this.used[index]);
  }
}

/** Deep equality of JSON values; object key order does not matter, `undefined` members count as absent. */
export function isJsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => isJsonEqual(item, other[index]));
  }
  const left = definedEntries(a as Record<string, unknown>);
  const right = b as Record<string, unknown>;
  if (left.length !== definedEntries(right).length) return false;
  return left.every(([key, value]) => Object.hasOwn(right, key) && isJsonEqual(value, right[key]));
}

function definedEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([, item]) => item !== undefined);
}
