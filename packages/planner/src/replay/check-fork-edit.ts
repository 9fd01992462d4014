import type { ForkEdit } from "@waddle/protocol";
import type { z } from "zod";
import type { Catalog } from "../catalog/catalog.js";
import type { StepRecordOf } from "./rebuild-run-state.js";

/** Why an edit cannot apply, in words and as a reason code (`details.reason` of a 422). */
export type ForkEditCheck =
  { ok: true } | { ok: false; reason: string; message: string; issues?: z.core.$ZodIssue[] };

/**
 * Checks a fork's edit against the step it changes and the tools of the version the fork runs: a query
 * only at step 0; an observation or args only on a step that called one tool of the catalog, and only a
 * value that fits its out or args schema. A model's reply is always accepted: it is parsed and repaired
 * like a real one.
 */
export function checkForkEdit(input: {
  catalog: Catalog;
  fromStep: number;
  edit: ForkEdit | undefined;
  /** The parent's step at `fromStep`, when it recorded one (the final answer's step has none). */
  target: StepRecordOf | undefined;
}): ForkEditCheck {
  const { edit, target, fromStep } = input;
  if (edit === undefined || edit.kind === "llm_reply") return { ok: true };
  if (edit.kind === "query") {
    return fromStep === 0
      ? { ok: true }
      : {
          ok: false,
          reason: "query_needs_step_0",
          message: `A query edit forks from step 0 (the run's start), not step ${fromStep}.`,
        };
  }
  const step = target?.step;
  if (
    step === undefined ||
    step.note === true ||
    step.branches !== undefined ||
    step.next_node.startsWith("task.")
  ) {
    return {
      ok: false,
      reason: "not_a_tool_step",
      message: `Step ${fromStep} did not call one tool, so it has no ${edit.kind === "args" ? "args" : "observation"} to edit: pick a step with a tool call, or edit the model's reply.`,
    };
  }
  if (edit.kind === "observation" && step.refused !== undefined) {
    return {
      ok: false,
      reason: "not_a_tool_step",
      message: `Step ${fromStep} was refused before ${step.next_node} ran (${step.refused.code}): edit its args instead.`,
    };
  }
  const tool = input.catalog.get(step.next_node);
  if (tool === undefined) {
    return {
      ok: false,
      reason: "unknown_tool",
      message: `The version the fork runs has no tool "${step.next_node}" (step ${fromStep}'s tool).`,
    };
  }
  const schema = edit.kind === "args" ? tool.args : tool.out;
  const parsed = schema.safeParse(edit.value);
  if (parsed.success) return { ok: true };
  return {
    ok: false,
    reason: edit.kind === "args" ? "invalid_args" : "invalid_observation",
    message: `The ${edit.kind === "args" ? "args do" : "observation does"} not fit ${tool.name}'s ${edit.kind === "args" ? "args" : "output"} schema.`,
    issues: parsed.error.issues,
  };
}
