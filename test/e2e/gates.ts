import type { GateState } from "./gate-server.js";
import { getUniqueId } from "./runs-helpers.js";

/**
 * Gated tools for specs (the gate server is `gate-server.ts`, started by global setup): a gated tool runs
 * until the test opens its gate, so "while it runs" is a state the test holds, not a latency it bets on.
 * Gate keys carry a prefix of their own, so repeated runs against one server never share a gate.
 */

function getEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts`);
  return value;
}

/** The longest a gated tool waits (the planner's 30 s default would end a call a loaded machine holds). */
const GATED_TIMEOUT_MS = 600_000;

type ToolSpecInput = Record<string, unknown> & { name: string; impl?: Record<string, unknown> };

export interface Gates {
  /** The gate server's key of gate `name`. */
  getKey(name: string): string;
  /** An http impl that waits on gate `name`, with the tool timeouts that let it. */
  getGatedFields(name: string): { timeoutMs: number; impl: Record<string, unknown> };
  /**
   * The spec with every tool (or those named in `only`) gated on a gate of its own name; a mock tool's
   * output (its `{{args.x}}` templates too) becomes what its gate answers, so the run goes on as the mock
   * would have made it.
   */
  gate<T extends Record<string, unknown>>(spec: T, only?: readonly string[]): T;
  /** Opens gate `name` (it stays open): the calls it holds and any later ones are answered. */
  open(name: string, answer?: unknown): Promise<GateState>;
  /** Opens every gate of these gates. */
  openAll(): Promise<void>;
  /** Closes gate `name` again: later calls wait. */
  close(name: string): Promise<GateState>;
  /** Closes every gate of these gates. */
  closeAll(): Promise<void>;
  /** What gate `name` saw. */
  get(name: string): Promise<GateState>;
}

/** The gates of one test, keyed `<prefix>-<name>` on the gate server. */
export function createGates(prefix = "gate"): Gates {
  const unique = getUniqueId(prefix);
  const answers = new Map<string, unknown>();
  const names = new Set<string>();
  const getKey = (name: string) => `${unique}-${name}`;
  const control = async (name: string, action: "open" | "close" | "", body?: unknown) => {
    const url = `${getEnv("WADDLE_E2E_GATES_CONTROL_URL")}/gates/${getKey(name)}${action ? `/${action}` : ""}`;
    const answer = await fetch(url, {
      method: action ? "POST" : "GET",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!answer.ok) throw new Error(`gate ${name}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as GateState;
  };
  const getGatedFields = (name: string) => {
    names.add(name);
    return {
      timeoutMs: GATED_TIMEOUT_MS,
      impl: {
        kind: "http",
        method: "POST",
        url: `${getEnv("WADDLE_E2E_GATES_URL")}/gates/${getKey(name)}`,
        timeoutMs: GATED_TIMEOUT_MS,
      },
    };
  };
  const open = (name: string, answer?: unknown) => {
    const given = answer ?? answers.get(name);
    return control(name, "open", given === undefined ? undefined : { answer: given });
  };
  return {
    getKey,
    getGatedFields,
    gate: (spec, only) => {
      const tools = (spec.tools as ToolSpecInput[]).map((tool) => {
        if (only && !only.includes(tool.name)) return tool;
        if (tool.impl?.kind === "mock") answers.set(tool.name, tool.impl.output ?? {});
        return { ...tool, ...getGatedFields(tool.name) };
      });
      return { ...spec, tools };
    },
    open,
    openAll: async () => {
      for (const name of names) await open(name);
    },
    close: (name) => control(name, "close"),
    closeAll: async () => {
      for (const name of names) await control(name, "close");
    },
    get: (name) => control(name, ""),
  };
}
