import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, it } from "vitest";
import { MemoryStore } from "./memory-store.js";
import { SqliteStore } from "./sqlite-store.js";
import { storeConformanceCases } from "./store-conformance.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-store-"));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const implementations = [
  { name: "MemoryStore", make: () => new MemoryStore() },
  { name: "SqliteStore (file)", make: () => new SqliteStore(path.join(dir, `store-${(counter += 1)}.db`)) },
  {
    name: "SqliteStore (file, background checkpoints)",
    make: () =>
      new SqliteStore(path.join(dir, `store-${(counter += 1)}.db`), {
        backgroundCheckpoints: { intervalMs: 5 },
      }),
  },
  { name: "SqliteStore (:memory:)", make: () => new SqliteStore(":memory:") },
];

describe.each(implementations)("$name", ({ make }) => {
  it.each(storeConformanceCases)("$name", async ({ run }) => {
    await run(make);
  });
});
