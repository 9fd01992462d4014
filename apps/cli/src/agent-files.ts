import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Slug } from "@waddle/protocol";
import { z } from "zod";
import { UsageError } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";

/** Where `waddle pull` put each file, and so where `waddle push` reads them. */
export const BASE_FILE = ".waddle-base.json";
export const CHANNELS_FILE = "channels.json";
export const AGENTS_DIR = "agents";

/**
 * What each agent was pulled (or last pushed) at: the server's version, and hashes of the spec and suite as
 * written, so that push sends only what was edited and refuses a spec whose base the server has moved past.
 */
export const AgentBase = z.object({
  version: z.int().positive(),
  specHash: z.string(),
  testsHash: z.string().optional(),
});
export type AgentBase = z.infer<typeof AgentBase>;
export const BaseFile = z.object({ server: z.string(), agents: z.record(Slug, AgentBase) });
export type BaseFile = z.infer<typeof BaseFile>;

/** Pretty JSON with a final newline; `sortKeys` where order means nothing, so that diffs stay small. */
export function stringifyFile(value: unknown, options: { sortKeys?: boolean } = {}): string {
  return `${JSON.stringify(options.sortKeys ? sortKeysDeep(value) : value, null, 2)}\n`;
}

/** A hash of a value's content whatever its key order or formatting: an edit changes it, a reformat not. */
export function getContentHash(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(sortKeysDeep(value)))
    .digest("hex")
    .slice(0, 16);
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
  );
}

export function getSpecPath(dir: string, agentId: string): string {
  return path.join(dir, AGENTS_DIR, `${agentId}.json`);
}

export function getTestsPath(dir: string, agentId: string): string {
  return path.join(dir, AGENTS_DIR, `${agentId}.tests.json`);
}

export function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The base file of a pulled folder; an empty one for a folder never pulled (every agent is new). */
export function readBaseFile(dir: string, server: string): BaseFile {
  const file = path.join(dir, BASE_FILE);
  if (!existsSync(file)) return { server, agents: {} };
  const parsed = BaseFile.safeParse(readJsonFile(file, dir));
  if (!parsed.success) throw new UsageError(`${file} is not a waddle base file: pull the folder again.`);
  return parsed.data;
}

/** The agent ids with a spec file in `<dir>/agents`, sorted. */
export function listAgentFiles(dir: string): string[] {
  const agentsDir = path.join(dir, AGENTS_DIR);
  if (!existsSync(agentsDir)) throw new UsageError(`${agentsDir} does not exist: run waddle pull first.`);
  return readdirSync(agentsDir)
    .filter((file) => file.endsWith(".json") && !file.endsWith(".tests.json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
}
