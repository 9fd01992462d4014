import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stateStoreConformanceCases } from "@waddle/planner/testing";
import { afterAll, describe, it } from "vitest";
import { MemoryStore } from "./memory-store.js";
import { PausedStateStore } from "./paused-state-store.js";
import { SqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-paused-"));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const implementations = [
  {
    name: "over SqliteStore",
    make: () => new PausedStateStore(new SqliteStore(path.join(dir, `p-${(counter += 1)}.db`)), "run_x"),
  },
  { name: "over MemoryStore", make: () => new PausedStateStore(new MemoryStore()) },
];

describe.each(implementations)("PausedStateStore $name passes the planner's StateStore suite", ({ make }) => {
  it.each(stateStoreConformanceCases)("$name", async ({ run }) => {
    await run(make);
  });
});
