import { RunEvent, type AgentSpec, type RunEventType } from "@waddle/protocol";
import type { Sleep } from "../util/abortable-sleep.js";
import { ReactPlanner, type FromSpecOptions } from "../loop/react-planner.js";
import { ScriptedClient, type ScriptedReply } from "./scripted-client.js";

/** A clock that only moves when something sleeps: runs are fast and repeat exactly. */
export interface VirtualTime {
  clock: () => number;
  sleep: Sleep;
  /** Every sleep requested, in order. */
  sleeps: number[];
  advance(ms: number): void;
}

export function createVirtualTime(start = 1_000_000): VirtualTime {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleeps,
    advance(ms) {
      now += ms;
    },
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
      await Promise.resolve();
      signal?.throwIfAborted();
    },
  };
}

/** Records events and checks each against the protocol's RunEvent schema as it arrives. */
export function createEventLog(): {
  events: RunEvent[];
  onEvent: (event: RunEvent) => void;
  ofType<T extends RunEventType>(type: T): Extract<RunEvent, { type: T }>[];
  types(): RunEventType[];
} {
  const events: RunEvent[] = [];
  return {
    events,
    onEvent: (event) => {
      events.push(RunEvent.parse(event));
    },
    ofType: <T extends RunEventType>(type: T) =>
      events.filter((event) => event.type === type) as Extract<RunEvent, { type: T }>[],
    types: () => events.map((event) => event.type),
  };
}

/** A planner for an example-agent spec with a scripted LLM, virtual time and counting ids. */
export function createScriptedPlanner(
  spec: AgentSpec,
  replies: readonly ScriptedReply[],
  overrides: Partial<FromSpecOptions> = {},
): { planner: ReactPlanner; client: ScriptedClient; time: VirtualTime } {
  const client = new ScriptedClient(replies);
  const time = createVirtualTime();
  let id = 0;
  const planner = ReactPlanner.fromSpec(spec, {
    llm: client,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    createId: () => `id-${(id += 1)}`,
    ...overrides,
  });
  return { planner, client, time };
}

export const call = (next_node: string, args: Record<string, unknown> = {}): Record<string, unknown> => ({
  next_node,
  args,
});
export const answer = (text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  next_node: "final_response",
  args: { answer: text, ...extra },
});
