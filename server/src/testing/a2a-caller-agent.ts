import { AgentSpec } from "@waddle/protocol";

// Shared by the tests where Waddle calls another Waddle over A2A (in-process, across a restart, in queue mode).

/** The args of an a2a tool in these tests: the query sent to the remote agent. */
export const A2A_QUERY_ARGS = {
  type: "object",
  properties: { query: { type: "string" } },
  required: ["query"],
};

/** An agent with one a2a tool, `ask_remote`, calling the A2A agent at `url`. */
export function createA2aCallerAgent(id: string, url: string): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [
      {
        name: "ask_remote",
        desc: "Asks the remote agent",
        sideEffects: "external",
        argsSchema: A2A_QUERY_ARGS,
        impl: { kind: "a2a", url },
      },
    ],
  });
}

/** The state of a remote task, read with `tasks/get` from the A2A agent at `agentUrl`. */
export async function getRemoteTaskState(agentUrl: string, taskId: string): Promise<string> {
  const response = await fetch(agentUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: taskId } }),
  });
  return ((await response.json()) as { result: { status: { state: string } } }).result.status.state;
}
