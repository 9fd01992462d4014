import { parseJson, protoSafeReviver } from "@waddle/protocol";
import { z } from "zod";
import { UsageError } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";

const ToolContext = z.record(z.string(), z.unknown());

/**
 * The `--tool-context` value: a JSON object inline (`'{"apiKey": "…"}'`) or in a file (`@context.json`).
 * It goes to the agent's tools and never to the LLM, events or the server's store.
 */
export function readToolContext(value: string | undefined, cwd: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let json: unknown;
  if (value === "@") throw new UsageError("--tool-context @ needs a file name, e.g. @context.json.");
  if (value.startsWith("@")) json = readJsonFile(value.slice(1), cwd);
  else {
    const parsed = parseJson(value, { reviver: protoSafeReviver });
    if (!parsed.ok) throw new UsageError(`--tool-context is not valid JSON: ${parsed.error}.`);
    json = parsed.value;
  }
  const parsed = ToolContext.safeParse(json);
  if (!parsed.success) {
    throw new UsageError(
      '--tool-context must be a JSON object, e.g. --tool-context \'{"apiKey": "…"}\' or @file.json.',
    );
  }
  return parsed.data;
}
