import type { Attributes } from "@opentelemetry/api";

/** What the tracer knows of an agent version: its name and each tool's kind and side effects. */
export interface TracedAgent {
  name: string;
  tools: Readonly<Record<string, { kind: string; sideEffects: string }>>;
}

/** Reads an agent version; undefined when it is gone. */
export type DescribeAgent = (agentId: string, version: number) => Promise<TracedAgent | undefined>;

/** Tool kinds that call out of the process (`extension` in the GenAI conventions); the rest are functions. */
const EXTENSION_KINDS = new Set(["http", "mcp", "a2a"]);

/**
 * The agent versions that spans describe (`gen_ai.agent.name`, each tool's type and side effects), asked
 * for once per version and kept: a span never waits for one, it gets what is known when it starts or ends,
 * and `onDescribed` lets the tracer fill in spans still open when a description comes.
 */
export class TracedAgents {
  private readonly known = new Map<string, TracedAgent | "pending">();

  constructor(
    private readonly options: {
      describe?: DescribeAgent | undefined;
      onDescribed: (agentKey: string, agent: TracedAgent) => void;
    },
  ) {}

  /** The key of an agent version, as `get` and `getToolAttributes` take it. */
  static keyOf(agentId: string, version: number): string {
    return `${agentId}@${version}`;
  }

  /** The version's description if known; asks for it otherwise (once: until it comes, or fails). */
  get(agentId: string, version: number): TracedAgent | undefined {
    const key = TracedAgents.keyOf(agentId, version);
    const known = this.known.get(key);
    if (known !== undefined) return known === "pending" ? undefined : known;
    const describe = this.options.describe;
    if (!describe) return undefined;
    this.known.set(key, "pending");
    describe(agentId, version).then(
      (agent) => {
        if (!agent) {
          this.known.delete(key);
          return;
        }
        this.known.set(key, agent);
        this.options.onDescribed(key, agent);
      },
      () => this.known.delete(key),
    );
    return undefined;
  }

  /** A tool's GenAI type, kind and side effects, when its agent version is known. */
  getToolAttributes(agentKey: string, tool: string): Attributes {
    const agent = this.known.get(agentKey);
    const spec = agent && agent !== "pending" ? agent.tools[tool] : undefined;
    if (!spec) return {};
    return {
      "gen_ai.tool.type": EXTENSION_KINDS.has(spec.kind) ? "extension" : "function",
      "waddle.tool.kind": spec.kind,
      "waddle.tool.side_effects": spec.sideEffects,
    };
  }
}
