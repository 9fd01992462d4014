import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJson, protoSafeReviver, validateAgentSpec } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** Saves the example agents (`*.json` of a folder) into a store that holds no agent yet; returns their ids. */
export async function loadExampleAgents(options: {
  store: WaddleStore;
  dir: string;
  logger: Logger;
}): Promise<string[]> {
  if ((await options.store.listAgents()).length > 0) return [];
  const loaded: string[] = [];
  for (const file of readdirSync(options.dir)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const parsed = parseJson(readFileSync(path.join(options.dir, file), "utf8"), {
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
    loaded.push(result.spec.id);
  }
  return loaded;
}
