// What the corpus cases are built from: the answer, the search call, and the two common case shapes.
import type { MalformedCase } from "../malformed-corpus-runner.js";

export const json = (value: unknown): string => JSON.stringify(value);
export const ANSWER = "Open Settings > Security and choose Reset password.";
export const final = (answer = ANSWER, extra: Record<string, unknown> = {}): string =>
  json({ next_node: "final_response", args: { answer, ...extra } });
export const call = (next_node: string, args: Record<string, unknown>): string => json({ next_node, args });
export const SEARCH = { q: "reset password" };
export const searched = [{ tool: "search", args: SEARCH }];
export const cut = (content: string) => ({ content, finishReason: "length" });

/** A final answer in a shape of its own: no call, no repair. */
export function answerCase(
  id: string,
  kind: string,
  description: string,
  reply: string,
  answer = ANSWER,
): MalformedCase {
  return {
    id,
    kind,
    description,
    replies: [reply],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer },
  };
}

/** A search call in a shape of its own, then a clean answer: the call runs as meant, no repair. */
export function callCase(id: string, kind: string, description: string, reply: string): MalformedCase {
  return {
    id,
    kind,
    description,
    replies: [reply, final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  };
}
