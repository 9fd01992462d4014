import type { CallRecord } from "@waddle/planner";
import { SIDE_EFFECTS } from "@waddle/protocol";
import { z } from "zod";

/**
 * What each run did, step by step and call by call (the planner's `RunCalls.record`): a fork rebuilds its
 * prefix from it and serves identical calls from it. Append-only per run, in order; SQLite, PostgreSQL
 * and in-memory, under one conformance suite (`callRecordCases`).
 */
export interface CallRecordStore {
  /** Appends records after the run's last ones. */
  append(runId: string, records: readonly CallRecord[]): Promise<void>;
  /** The run's records in the order they were appended (empty for an unknown run). */
  list(runId: string): Promise<CallRecord[]>;
}

const StepShape = z.looseObject({
  index: z.int().nonnegative(),
  next_node: z.string(),
  args: z.record(z.string(), z.unknown()),
  source: z.string(),
});

/** A stored record, checked before the planner trusts it (stored JSON is an edge). */
export const StoredCallRecord = z.discriminatedUnion("kind", [
  z.looseObject({ kind: z.literal("step"), step: StepShape, reply: z.string().optional() }),
  z.looseObject({
    kind: z.literal("llm"),
    step: z.int().nonnegative(),
    key: z.string(),
    purpose: z.string(),
    result: z.looseObject({ content: z.string() }),
  }),
  z.looseObject({
    kind: z.literal("tool"),
    step: z.int().nonnegative(),
    tool: z.string(),
    sideEffects: z.enum(SIDE_EFFECTS),
    args: z.record(z.string(), z.unknown()),
    observation: z.unknown(),
  }),
]);

/** Parses one stored record's JSON text; undefined (skipped) when it is not one. */
export function parseStoredCallRecord(text: string): CallRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = StoredCallRecord.safeParse(value);
  return parsed.success ? (parsed.data as unknown as CallRecord) : undefined;
}
