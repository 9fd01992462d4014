import { existsSync, readFileSync } from "node:fs";
import { listExampleAgentFiles } from "@waddle/examples";
import { parseJson, protoSafeReviver, TestSuite, validateAgentSpec } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";

/**
 * Saves the example agents (`*.json` of a folder) into a store that holds no agent yet, each with its test
 * suite (`<id>.tests.json` beside it) when it has one; returns their ids.
 */
export async function loadExampleAgents(options: {
  store: WaddleStore;
  dir: string;
  logger: Logger;
}): Promise<string[]> {
  if ((await options.store.listAgents()).length > 0) return [];
  const loaded: string[] = [];
  for (const { file, testsFile } of listExampleAgentFiles(options.dir)) {
    const parsed = parseJson(readFileSync(file, "utf8"), {
      reviver: protoSafeReviver,
    });
    const result = parsed.ok ? validateAgentSpec(parsed.value) : undefined;
    if (!result?.ok) {
      options.logger.warn("example agent skipped", {
        file,
        reason: parsed.ok ? result?.issues[0]?.message : parsed.error,
      });
      continue;
    }
    await options.store.createAgent({ spec: result.spec, message: "example" });
    await loadExampleSuite({ ...options, agentId: result.spec.id, file: testsFile });
    loaded.push(result.spec.id);
  }
  return loaded;
}

async function loadExampleSuite(options: {
  store: WaddleStore;
  logger: Logger;
  agentId: string;
  /** `<file's id>.tests.json` beside the spec. */
  file: string;
}): Promise<void> {
  const { file } = options;
  if (!existsSync(file)) return;
  const parsed = parseJson(readFileSync(file, "utf8"), { reviver: protoSafeReviver });
  const suite = parsed.ok ? TestSuite.safeParse(parsed.value) : undefined;
  if (!suite?.success) {
    options.logger.warn("example test suite skipped", {
      file,
      reason: parsed.ok ? suite?.error.issues[0]?.message : parsed.error,
    });
    return;
  }
  await options.store.tests.putSuite(options.agentId, suite.data.cases);
}
