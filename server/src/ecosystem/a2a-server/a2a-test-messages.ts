import { randomUUID } from "node:crypto";
import { Role, type Message, type Part } from "@a2a-js/sdk";
import { AgentSpec } from "@waddle/protocol";

// Shared by the A2A server's tests: an agent whose run stays working, and the SDK's message shapes.

/** One slow mock tool: the offline model calls it, so the run stays working until cancelled. */
export const slowAgent = AgentSpec.parse({
  version: 1,
  id: "slow-lookup",
  name: "Slow lookup",
  description: "Looks something up, slowly.",
  sampleQueries: ["Look up the weather"],
  tools: [
    { name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true }, latencyMs: 60_000 } },
  ],
});

export function userMessage(parts: Part[], ids: { taskId?: string; contextId?: string } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

/** The SDK client's `sendMessage` request for `message`. */
export const send = (
  message: Message,
): { tenant: string; message: Message; configuration: undefined; metadata: undefined } => ({
  tenant: "",
  message,
  configuration: undefined,
  metadata: undefined,
});
