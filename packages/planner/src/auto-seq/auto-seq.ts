import { type PlannerAction, READ_ONLY_SIDE_EFFECTS, type SideEffect } from "@waddle/protocol";
import type { z } from "zod";
import type { AutoSeqCache } from "./auto-seq-cache.js";
import {
  type AutoSeqFingerprint,
  getFailureFingerprint,
  getPayloadFingerprint,
  getPayloadKeys,
  isPlainObject,
} from "./auto-seq-fingerprint.js";

/** Why detection did not run (docs/auto-seq.md, with the two preconditions of Waddle's loop). */
export const AUTO_SEQ_SKIP_REASONS = [
  "no_steps",
  "pending_actions_present",
  "previous_step_parallel",
  "non_structured_observation",
  /** The loop's own guards (loop/steps/auto-seq-runner.ts): never the same tool on the same payload twice in a row… */
  "repeated_fingerprint",
  /** …and never right after a queued action (a resumed call): the model decides first. */
  "after_queued_action",
] as const;
export type AutoSeqSkipReason = (typeof AUTO_SEQ_SKIP_REASONS)[number];

/** One step of the trajectory, as much as detection needs. */
export interface AutoSeqStep {
  next_node: string;
  observation?: unknown;
  /** Set when the step failed: its observation is then not a structured payload. */
  failure?: unknown;
  /** Output type name for the fingerprint: the producing tool's out-schema `title`, when it has one. */
  payloadType?: string;
}

/** A visible tool, as much as detection needs. Pass only the tools in the run's visibility scope. */
export interface AutoSeqTool {
  name: string;
  sideEffects: SideEffect;
  /** `autoSeq` on the tool (`extra.auto_seq` in PenguiFlow specs): the tool takes part in detection. */
  autoSeq: boolean;
  /** The tool's args schema: the payload must validate against it. */
  args: z.ZodType;
}

/** A visual `auto_seq` edge: `target` may follow `source`. Edges of another `kind` are ignored. */
export interface AutoSeqEdge {
  source: string;
  target: string;
  kind?: string;
}

export interface DetectTransitionOptions {
  steps: readonly AutoSeqStep[];
  tools: readonly AutoSeqTool[];
  /** `autoSeq.readOnlyOnly`: only `pure` and `read` tools are eligible. */
  readOnlyOnly: boolean;
  /** Queued actions (or their count): a queued action runs first, so detection is skipped. */
  pendingActions?: readonly unknown[] | number;
  /** A tool with incoming edges is eligible only right after one of their sources. */
  autoSeqEdges?: readonly AutoSeqEdge[];
  /** Tool names that may not be chosen (disallowed, blocked by policy). */
  blocked?: Iterable<string>;
  /** Best-effort memo of (tool, payload shape) outcomes; results are the same without it. */
  cache?: AutoSeqCache;
}

export type TransitionStatus = "unique" | "ambiguous" | "none" | "skipped";

export interface TransitionDetection {
  status: TransitionStatus;
  /** Eligible tools in catalog order: one for `unique`, two or more for `ambiguous`. */
  candidates: string[];
  /** For `unique`: the next action, with args from the validated payload. */
  action?: PlannerAction;
  /** For `skipped`. */
  reason?: AutoSeqSkipReason;
  /** The last step's payload fingerprint; absent only when there is no step (`no_steps`). */
  fingerprint?: AutoSeqFingerprint;
}

/**
 * The deterministic transition detector (docs/auto-seq.md): after a tool step, finds the tools that can take the last
 * structured observation as their args. Exactly one eligible tool gives `unique` and a ready action; the
 * caller still runs it through constraints, approval gates and validation like an LLM action.
 */
export function detectTransition(options: DetectTransitionOptions): TransitionDetection {
  const last = options.steps.at(-1);
  if (last === undefined) return { status: "skipped", reason: "no_steps", candidates: [] };
  const fingerprint =
    last.failure === undefined
      ? getPayloadFingerprint(last.observation, last.payloadType)
      : getFailureFingerprint();
  const skip = getSkipReason(options, last);
  if (skip !== undefined) return { status: "skipped", reason: skip, candidates: [], fingerprint };

  const structured = last.observation as Record<string, unknown>;
  const keys = getPayloadKeys(structured);
  const blocked = new Set(options.blocked ?? []);
  const incoming = getIncomingSources(options.autoSeqEdges ?? []);
  const matches: { tool: AutoSeqTool; args: Record<string, unknown> }[] = [];
  for (const tool of options.tools) {
    if (!isToolGateOpen({ tool, readOnlyOnly: options.readOnlyOnly, blocked, incoming, previous: last })) {
      continue;
    }
    const verdict = options.cache?.getShapeVerdict({ tool: tool.name, schema: tool.args, keys });
    if (verdict === "shape_mismatch") continue;
    const parsed = tool.args.safeParse(structured);
    if (parsed.success && isPlainObject(parsed.data)) matches.push({ tool, args: parsed.data });
  }
  const candidates = matches.map((match) => match.tool.name);
  const [only] = matches;
  if (only !== undefined && matches.length === 1) {
    return {
      status: "unique",
      candidates,
      action: { next_node: only.tool.name, args: only.args },
      fingerprint,
    };
  }
  return { status: matches.length === 0 ? "none" : "ambiguous", candidates, fingerprint };
}

function getSkipReason(options: DetectTransitionOptions, last: AutoSeqStep): AutoSeqSkipReason | undefined {
  const pending = options.pendingActions;
  const pendingCount = typeof pending === "number" ? pending : (pending?.length ?? 0);
  if (pendingCount > 0) return "pending_actions_present";
  // `plan` is the older synonym of `parallel`; normalization usually rewrites it, but be safe.
  if (last.next_node === "parallel" || last.next_node === "plan") return "previous_step_parallel";
  if (last.failure !== undefined || !isPlainObject(last.observation)) return "non_structured_observation";
  return undefined;
}

function getIncomingSources(edges: readonly AutoSeqEdge[]): Map<string, Set<string>> {
  const incoming = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.kind !== undefined && edge.kind !== "auto_seq") continue;
    const sources = incoming.get(edge.target) ?? new Set<string>();
    sources.add(edge.source);
    incoming.set(edge.target, sources);
  }
  return incoming;
}

function isToolGateOpen(input: {
  tool: AutoSeqTool;
  readOnlyOnly: boolean;
  blocked: ReadonlySet<string>;
  incoming: ReadonlyMap<string, ReadonlySet<string>>;
  previous: AutoSeqStep;
}): boolean {
  const { tool } = input;
  if (!tool.autoSeq) return false;
  if (input.readOnlyOnly && !READ_ONLY_SIDE_EFFECTS.has(tool.sideEffects)) return false;
  if (input.blocked.has(tool.name)) return false;
  const sources = input.incoming.get(tool.name);
  return sources === undefined || sources.has(input.previous.next_node);
}
