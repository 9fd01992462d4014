import { describe, expect, it } from "vitest";
import { TracedAgents, type TracedAgent } from "./traced-agents.js";

const mailer: TracedAgent = {
  name: "Mailer",
  tools: {
    send_email: { kind: "http", sideEffects: "external" },
    draft_email: { kind: "mock", sideEffects: "pure" },
  },
};

/** A `describe` whose answers the test gives, one call at a time. */
function createDescriber() {
  const calls: { agentId: string; version: number; reply: Promise<TracedAgent | undefined> }[] = [];
  const answers: ((agent: TracedAgent | Error) => void)[] = [];
  const describe = (agentId: string, version: number) => {
    const reply = new Promise<TracedAgent | undefined>((resolve, reject) => {
      answers.push((agent) => (agent instanceof Error ? reject(agent) : resolve(agent)));
    });
    calls.push({ agentId, version, reply });
    return reply;
  };
  /** Answers call `index`; resolves once the reader's own handlers (added before these) have run. */
  const answer = async (index: number, agent: TracedAgent | Error): Promise<void> => {
    answers[index]!(agent);
    await calls[index]!.reply.catch(() => undefined);
  };
  return { describe, calls, answer };
}

describe("TracedAgents", () => {
  it("asks once per version, tells when the description comes, then answers from what it keeps", async () => {
    const { describe: describeAgent, calls, answer } = createDescriber();
    const described: [string, TracedAgent][] = [];
    const agents = new TracedAgents({
      describe: describeAgent,
      onDescribed: (key, agent) => described.push([key, agent]),
    });
    expect(agents.get("mailer", 3)).toBeUndefined();
    expect(agents.get("mailer", 3)).toBeUndefined();
    expect(calls.map(({ agentId, version }) => [agentId, version])).toEqual([["mailer", 3]]);
    const key = TracedAgents.keyOf("mailer", 3);
    expect(agents.getToolAttributes(key, "send_email")).toEqual({});

    await answer(0, mailer);
    expect(described).toEqual([[key, mailer]]);
    expect(agents.get("mailer", 3)).toBe(mailer);
    expect(agents.getToolAttributes(key, "send_email")).toEqual({
      "gen_ai.tool.type": "extension",
      "waddle.tool.kind": "http",
      "waddle.tool.side_effects": "external",
    });
    expect(agents.getToolAttributes(key, "draft_email")["gen_ai.tool.type"]).toBe("function");
    expect(agents.getToolAttributes(key, "unknown_tool")).toEqual({});
    expect(calls).toHaveLength(1);
  });

  it("asks again after a failed read, and describes nothing without a reader", async () => {
    const { describe: describeAgent, calls, answer } = createDescriber();
    const agents = new TracedAgents({ describe: describeAgent, onDescribed: () => undefined });
    agents.get("mailer", 1);
    await answer(0, new Error("the store went away"));
    agents.get("mailer", 1);
    expect(calls).toHaveLength(2);

    const blind = new TracedAgents({ onDescribed: () => undefined });
    expect(blind.get("mailer", 1)).toBeUndefined();
    expect(blind.getToolAttributes(TracedAgents.keyOf("mailer", 1), "send_email")).toEqual({});
  });
});
