import { AgentSpec } from "@waddle/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { MemoryStore } from "../store/memory-store.js";
import { resolveAgentName } from "./resolve-agent-name.js";

/** A real store whose record reads are counted: every `/v1`, MCP and A2A request resolves a name. */
class CountingStore extends MemoryStore {
  recordReads = 0;
  override async getAgent(id: string) {
    this.recordReads += 1;
    return super.getAgent(id);
  }
  override async getAgentVersion(id: string, version: number) {
    this.recordReads += 1;
    return super.getAgentVersion(id, version);
  }
}

let store: CountingStore;

beforeEach(async () => {
  store = new CountingStore();
  const spec = AgentSpec.parse({ version: 1, id: "triage", name: "Triage" });
  await store.createAgent({ spec });
  await store.updateAgent({ id: "triage", spec: { ...spec, name: "Triage v2" }, baseVersion: 1 });
  await store.createAgent({ spec: { ...spec, id: "fresh" } });
  await store.releases.create({
    id: "rel_1",
    agentId: "triage",
    channel: "staging",
    version: 1,
    previousVersion: null,
    previousReleaseId: null,
    kind: "release",
    releasedAt: "2026-11-01T00:00:00.000Z",
    releasedBy: "ops",
    notes: null,
    testRunId: null,
    overrideReason: null,
  });
  store.recordReads = 0;
});

describe("resolveAgentName", () => {
  it("reads the record that runs once: a plain name, a channel, a version", async () => {
    for (const [name, version] of [
      ["fresh", 1],
      ["triage", 2],
      ["triage@staging", 1],
      ["triage@2", 2],
    ] as const) {
      store.recordReads = 0;
      const resolved = await resolveAgentName(store, name, "@");
      expect(resolved?.agent.version, name).toBe(version);
      expect(store.recordReads, name).toBe(1);
    }
  });

  it("is undefined for a name that is no agent, whatever it names after the separator", async () => {
    for (const name of ["nope", "nope@staging", "nope@3", "Not An Id", "triage@Bad!"]) {
      expect(await resolveAgentName(store, name, "@"), name).toBeUndefined();
    }
  });

  it("is not_found naming the channel or version an agent does not have", async () => {
    await expect(resolveAgentName(store, "triage@production", "@")).rejects.toMatchObject({
      code: "not_found",
      details: { agentId: "triage", channel: "production" },
    });
    await expect(resolveAgentName(store, "triage.9", ".")).rejects.toMatchObject({
      code: "not_found",
      details: { agentId: "triage", version: 9 },
    });
  });
});
