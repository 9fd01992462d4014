import { describe, expect, it } from "vitest";
import { InMemoryStateStore } from "./in-memory-state-store.js";
import { isPlannerError } from "../errors/planner-error.js";
import { createResumeToken } from "./resume-token.js";
import { runStateStoreConformance, stateStoreConformanceCases } from "../testing/state-store-conformance.js";

describe("InMemoryStateStore conformance", () => {
  for (const conformanceCase of stateStoreConformanceCases) {
    it(conformanceCase.name, () => conformanceCase.run(() => new InMemoryStateStore()));
  }

  it("runs the whole suite in one call", async () => {
    await expect(runStateStoreConformance(() => new InMemoryStateStore())).resolves.toBeUndefined();
  });

  it("the suite catches a store that shares references", async () => {
    const map = new Map<string, Record<string, unknown>>();
    const leaky = {
      save: (token: string, state: Record<string, unknown>) => Promise.resolve(void map.set(token, state)),
      load: (token: string) => Promise.resolve(map.get(token)),
      delete: (token: string) => Promise.resolve(void map.delete(token)),
    };
    await expect(runStateStoreConformance(() => leaky)).rejects.toThrow(/stores copies/);
  });
});

describe("createResumeToken", () => {
  it("is URL-safe and carries 192 random bits", () => {
    const token = createResumeToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const tokens = new Set(Array.from({ length: 1_000 }, () => createResumeToken()));
    expect(tokens.size).toBe(1_000);
  });

  it("uses the injected randomness", () => {
    const token = createResumeToken((size) => new Uint8Array(size).fill(255));
    expect(token).toBe("_".repeat(32));
  });

  it("refuses a source that returns too few bytes", () => {
    let caught: unknown;
    try {
      createResumeToken(() => new Uint8Array(8));
    } catch (error) {
      caught = error;
    }
    expect(isPlannerError(caught, "invalid_options")).toBe(true);
  });
});
