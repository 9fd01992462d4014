import type { RetryPolicy, SideEffect, ToolSpec } from "@waddle/protocol";
import type { ToolDefinition } from "./tool.js";

/** Side effects from least to most consequential: a merge keeps the later of two. */
export const SIDE_EFFECT_ORDER: readonly SideEffect[] = ["pure", "read", "stateful", "write", "external"];

/** The safety-relevant metadata of a spec tool that runs a module tool (docs/catalog.md). */
export interface ModuleSafety {
  sideEffects: SideEffect;
  requiresApproval: boolean;
  authScopes: readonly string[];
  safetyNotes?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  costUsd?: number;
}

/** The more consequential of two side effects (`pure` < `read` < `stateful` < `write` < `external`). */
export function getStricterSideEffect(first: SideEffect, second: SideEffect): SideEffect {
  return SIDE_EFFECT_ORDER.indexOf(second) > SIDE_EFFECT_ORDER.indexOf(first) ? second : first;
}

/**
 * Merges a spec tool's metadata with the module tool it runs so that the spec can tighten, never weaken,
 * what the module's author declared: the stricter side effect, approval if either asks, every auth scope,
 * both safety notes, the shorter timeout, no more attempts than the module allows, the higher cost.
 */
export function mergeModuleSafety(spec: ToolSpec, module: ToolDefinition): ModuleSafety {
  const merged: ModuleSafety = {
    sideEffects: getStricterSideEffect(spec.sideEffects, module.sideEffects ?? "pure"),
    requiresApproval: spec.requiresApproval || module.requiresApproval === true,
    authScopes: [...new Set([...(module.authScopes ?? []), ...spec.authScopes])],
  };
  const safetyNotes = joinNotes(module.safetyNotes, spec.safetyNotes);
  if (safetyNotes !== undefined) merged.safetyNotes = safetyNotes;
  const timeoutMs = getDefined([module.timeoutMs, spec.timeoutMs], Math.min);
  if (timeoutMs !== undefined) merged.timeoutMs = timeoutMs;
  const costUsd = getDefined([module.costUsd, spec.costUsd], Math.max);
  if (costUsd !== undefined) merged.costUsd = costUsd;
  const retry = mergeRetry(module.retry, spec.retry);
  if (retry !== undefined) merged.retry = retry;
  return merged;
}

/**
 * The spec's retry settings over the module's, but never more attempts than the module allows: an author
 * who sets `maxAttempts: 1` says a call must not be repeated (a write that is not idempotent).
 */
function mergeRetry(
  module: Partial<RetryPolicy> | undefined,
  spec: RetryPolicy | undefined,
): Partial<RetryPolicy> | undefined {
  if (module === undefined) return spec;
  if (spec === undefined) return module;
  const merged: Partial<RetryPolicy> = { ...module, ...spec };
  if (module.maxAttempts !== undefined) merged.maxAttempts = Math.min(module.maxAttempts, spec.maxAttempts);
  return merged;
}

/** `choose` over the values that are set; undefined when none is. */
function getDefined(
  values: readonly (number | undefined)[],
  choose: (...numbers: number[]) => number,
): number | undefined {
  const set = values.filter((value): value is number => value !== undefined);
  return set.length === 0 ? undefined : choose(...set);
}

function joinNotes(module: string | undefined, spec: string | undefined): string | undefined {
  const own = module?.trim() ?? "";
  const added = spec?.trim() ?? "";
  if (own.length === 0) return added.length === 0 ? undefined : added;
  if (added.length === 0 || added === own || own.includes(added)) return own;
  return added.includes(own) ? added : `${own} ${added}`;
}
