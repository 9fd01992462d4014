import type { GuardCheck, GuardInput } from "@waddle/protocol";
import type { LlmClient } from "../llm/llm-client.js";
import { GuardEngine } from "./guard-engine.js";
import type { GuardCheckDefinition } from "./guard-types.js";

/** Module checks by name, from a map or a list of `defineGuardCheck` definitions. */
export type GuardChecksInput = ReadonlyMap<string, GuardCheckDefinition> | readonly GuardCheckDefinition[];

export function toGuardCheckMap(
  input: GuardChecksInput | undefined,
): ReadonlyMap<string, GuardCheckDefinition> {
  if (input === undefined) return new Map();
  if (input instanceof Map) return input;
  return new Map(
    (input as readonly GuardCheckDefinition[]).map((definition) => [definition.name, definition]),
  );
}

/** True for what `defineGuardCheck` returns (how the server's module loader tells checks from tools). */
export function isGuardCheckDefinition(value: unknown): value is GuardCheckDefinition {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { kind?: unknown; name?: unknown; check?: unknown };
  return (
    candidate.kind === "guard_check" &&
    typeof candidate.name === "string" &&
    typeof candidate.check === "function"
  );
}

/**
 * The engine of a planner's guards, or none without guards. An `llm` check asks `createJudge(check.llm)`
 * when it names a model, else `agentLlm`.
 */
export function createGuardEngine(input: {
  guards: readonly GuardInput[] | undefined;
  guardChecks?: GuardChecksInput;
  agentLlm: LlmClient;
  createJudge?: (check: Extract<GuardCheck, { kind: "llm" }>) => LlmClient | undefined;
  clock?: () => number;
}): GuardEngine | undefined {
  if (input.guards === undefined || input.guards.length === 0) return undefined;
  const { createJudge, agentLlm } = input;
  return new GuardEngine(
    input.guards,
    {
      modules: toGuardCheckMap(input.guardChecks),
      judgeFor: (check) => (check.llm === undefined ? agentLlm : (createJudge?.(check) ?? undefined)),
    },
    input.clock,
  );
}
