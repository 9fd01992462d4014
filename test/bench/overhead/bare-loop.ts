import { FINAL_ANSWER, NOOP_TOOLS, type NoopTool, type ScriptedStep } from "./overhead-tools.js";

/** A message of the bare loop's history. */
export interface BareMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** The replies a JSON-protocol model would send for a trajectory, built once, then served instantly. */
export function createJsonReplies(trajectory: readonly ScriptedStep[]): string[] {
  return [
    ...trajectory.map((step) => JSON.stringify({ next_node: step.tool, args: step.args })),
    JSON.stringify({ next_node: "final_response", args: { answer: FINAL_ANSWER } }),
  ];
}

/** What the bare loop did: the answer, the tool calls made, and its message list. */
export interface BareLoopResult {
  answer: string;
  toolCalls: number;
  messages: BareMessage[];
}

const TOOLS_BY_NAME: ReadonlyMap<string, NoopTool> = new Map(NOOP_TOOLS.map((tool) => [tool.name, tool]));

/**
 * The floor: the least work any JSON-protocol planner must do per step. Call the model, `JSON.parse` its
 * reply, validate the args with zod, call the tool, append the stringified observation to the messages.
 * No events, no retries, no hints, no previews.
 */
export async function runBareLoop(input: {
  query: string;
  complete: (messages: readonly BareMessage[]) => Promise<string>;
}): Promise<BareLoopResult> {
  const messages: BareMessage[] = [
    { role: "system", content: "Answer with one JSON action." },
    { role: "user", content: input.query },
  ];
  let toolCalls = 0;
  for (;;) {
    const reply = await input.complete(messages);
    const action = JSON.parse(reply) as { next_node: string; args: Record<string, unknown> };
    messages.push({ role: "assistant", content: reply });
    if (action.next_node === "final_response") {
      return { answer: String(action.args.answer), toolCalls, messages };
    }
    const tool = TOOLS_BY_NAME.get(action.next_node);
    if (tool === undefined) throw new Error(`The bare loop has no tool "${action.next_node}".`);
    const args = tool.args.parse(action.args) as Record<string, unknown>;
    const observation = await tool.run(args);
    toolCalls += 1;
    messages.push({ role: "user", content: JSON.stringify(observation) });
  }
}

/** A model that answers from a list of replies, instantly; `reset()` before each run. */
export class InstantReplies {
  private index = 0;
  constructor(private readonly replies: readonly string[]) {}

  reset(): void {
    this.index = 0;
  }

  next(): string {
    const reply = this.replies[this.index];
    if (reply === undefined)
      throw new Error(`The script has ${this.replies.length} replies; call ${this.index + 1} came.`);
    this.index += 1;
    return reply;
  }
}
