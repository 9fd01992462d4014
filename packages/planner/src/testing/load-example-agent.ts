import { readFileSync } from "node:fs";
import { AgentSpec } from "@waddle/protocol";

const AGENTS_DIR = new URL("../../../../apps/examples/agents/", import.meta.url);

/** Loads one of the example agents in apps/examples/agents by id, parsed with defaults (tests only). */
export function loadExampleAgent(id: string): AgentSpec {
  return AgentSpec.parse(JSON.parse(readFileSync(new URL(`${id}.json`, AGENTS_DIR), "utf8")) as unknown);
}
