import { parseJson, type ForkEdit, type ForkEditKind } from "@waddle/protocol";
import type { CallView } from "../../runs/fold/run-view.js";

/** What the fork changes at its step: nothing (the step runs again), or one of the edit kinds. */
export type ForkEditChoice = "none" | ForkEditKind;

/** Where a fork starts: a run, the step (as in its events), and the tool call shown there, if any. */
export interface ForkTarget {
  runId: string;
  step: number;
  callId?: string | null;
}

export interface ForkEditOption {
  value: ForkEditChoice;
  label: string;
}

/**
 * The edits a step offers: its tool's result and args when it made one successful or failed call, the
 * model's reply always, the query only at the run's first step.
 */
export function getForkEditOptions(input: { step: number; call: CallView | null }): ForkEditOption[] {
  const options: ForkEditOption[] = [{ value: "none", label: "Nothing: run this step again" }];
  const call = input.call;
  if (call && call.step === input.step && call.parallelId === undefined) {
    options.push({ value: "observation", label: `The result of ${call.tool}` });
    options.push({ value: "args", label: `The args of ${call.tool}` });
  }
  options.push({ value: "llm_reply", label: "The model's reply" });
  if (input.step === 0) options.push({ value: "query", label: "The query" });
  return options;
}

/** The text an edit starts from: the call's result or args, the step's action as a reply, the query. */
export function getInitialEditText(input: {
  choice: ForkEditChoice;
  call: CallView | null;
  query: string;
}): string {
  const { choice, call } = input;
  if (choice === "observation") return JSON.stringify(call?.observation ?? call?.failure ?? {}, null, 2);
  if (choice === "args") return JSON.stringify(call?.args ?? {}, null, 2);
  if (choice === "llm_reply") {
    return JSON.stringify(
      call
        ? { next_node: call.tool, args: call.args ?? {} }
        : { next_node: "final_response", args: { answer: "" } },
    );
  }
  if (choice === "query") return input.query;
  return "";
}

export type ReadForkEdit = { ok: true; edit: ForkEdit | undefined } | { ok: false; error: string };

/**
 * The edit as the API takes it, from the dialog's text: JSON for an observation (any value) or args (an
 * object), plain text for a reply (sent as written, even if it is not JSON) or a query.
 */
export function readForkEdit(choice: ForkEditChoice, text: string): ReadForkEdit {
  if (choice === "none") return { ok: true, edit: undefined };
  if (choice === "llm_reply" || choice === "query") {
    if (text.trim() === "")
      return { ok: false, error: choice === "query" ? "Write a query." : "Write a reply." };
    return { ok: true, edit: { kind: choice, value: text } };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, error: `Not valid JSON: ${parsed.error}` };
  if (choice === "args") {
    const value = parsed.value;
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return { ok: false, error: "The args must be a JSON object." };
    return { ok: true, edit: { kind: "args", value: value as Record<string, unknown> } };
  }
  return { ok: true, edit: { kind: "observation", value: parsed.value } };
}
