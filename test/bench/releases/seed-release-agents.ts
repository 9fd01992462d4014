import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AgentSpec } from "@waddle/protocol";
import type { WaddleStore } from "@waddle/server";

/** The agent that has never been released: every surface runs its latest save. */
export const UNRELEASED_AGENT = "triage-unreleased";
/** The agent with `production` and `staging` and a history of releases and a rollback on each. */
export const RELEASED_AGENT = "triage-released";
/** Versions each agent is saved with. */
export const SAVED_VERSIONS = 6;
/** Where the released agent's channels point once seeded. */
export const SEEDED_CHANNELS = { production: 3, staging: 6 } as const;
/** Other agents, each with a production release, so that the channel tables are not two rows long. */
const OTHER_AGENTS = 40;

const require = createRequire(import.meta.url);

/** The support-triage example's spec (4.5 KB, 6 tools): a realistic record to read and parse. */
function readExampleSpec(): AgentSpec {
  const file = require.resolve("@waddle/examples/agents/support-triage.json");
  return AgentSpec.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** (channel, version) in the order they are released: production ends on v3 after a rollback. */
const HISTORY: readonly { channel: "production" | "staging"; version: number; rollback?: true }[] = [
  { channel: "staging", version: 1 },
  { channel: "production", version: 1 },
  { channel: "staging", version: 2 },
  { channel: "staging", version: 3 },
  { channel: "production", version: 3 },
  { channel: "staging", version: 4 },
  { channel: "staging", version: 5 },
  { channel: "production", version: 5 },
  { channel: "production", version: 3, rollback: true },
  { channel: "staging", version: 6 },
];

async function saveVersions(store: WaddleStore, spec: AgentSpec, id: string, count: number): Promise<void> {
  await store.createAgent({ spec: { ...spec, id } });
  for (let version = 1; version < count; version += 1) {
    await store.updateAgent({
      id,
      spec: { ...spec, id, name: `${spec.name} v${version + 1}` },
      baseVersion: version,
    });
  }
}

async function release(
  store: WaddleStore,
  options: { agentId: string; channel: string; version: number; rollback?: boolean; index: number },
): Promise<void> {
  const current = await store.releases.getChannel(options.agentId, options.channel);
  await store.releases.create(
    {
      id: `rel_${options.agentId}_${options.index}`,
      agentId: options.agentId,
      channel: options.channel,
      version: options.version,
      previousVersion: current?.version ?? null,
      previousReleaseId: current?.releaseId ?? null,
      kind: options.rollback ? "rollback" : "release",
      releasedAt: new Date(Date.UTC(2026, 10, 1, options.index)).toISOString(),
      releasedBy: "bench",
      notes: `release ${options.index}`,
      testRunId: null,
      overrideReason: null,
    },
    { expectedReleaseId: current?.releaseId ?? null },
  );
}

/**
 * Saves the two measured agents (and `OTHER_AGENTS` more with a production release each) in `store`:
 * the same spec and number of versions, so that the only difference between them is their releases.
 */
export async function seedReleaseAgents(store: WaddleStore): Promise<void> {
  const spec = readExampleSpec();
  await saveVersions(store, spec, UNRELEASED_AGENT, SAVED_VERSIONS);
  await saveVersions(store, spec, RELEASED_AGENT, SAVED_VERSIONS);
  for (const [index, step] of HISTORY.entries()) {
    await release(store, { agentId: RELEASED_AGENT, ...step, index });
  }
  for (let other = 0; other < OTHER_AGENTS; other += 1) {
    const agentId = `triage-other-${other}`;
    await saveVersions(store, spec, agentId, 2);
    await release(store, { agentId, channel: "production", version: 1, index: 0 });
  }
}
