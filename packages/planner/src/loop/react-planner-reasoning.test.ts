import type { AgentSpec, LlmConfig } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { answer, createEventLog, createVirtualTime } from "../testing/run-harness.js";
import { ScriptedClient, scriptedReply } from "../testing/scripted-client.js";

const triage = loadExampleAgent("support-triage");
const withLlm = (llm: Partial<AgentSpec["llm"]>, extra: Partial<AgentSpec> = {}): AgentSpec => ({
  ...triage,
  llm: { ...triage.llm, ...llm },
  ...extra,
});
const injectables = () => ({ sleep: createVirtualTime().sleep, clock: createVirtualTime().clock });

describe("reasoning effort", () => {
  it("passes a configured effort to every planning call, without asking a router", async () => {
    const llm = new ScriptedClient([answer("ok")]);
    const planner = ReactPlanner.fromSpec(withLlm({ reasoningEffort: "high" }), { llm, ...injectables() });
    await planner.run("x");
    expect(llm.calls.map((entry) => [entry.purpose, entry.reasoningEffort])).toEqual([["plan", "high"]]);
  });

  it("auto: the router LLM picks the effort once per run, and its call is counted", async () => {
    const llm = new ScriptedClient([answer("ok")]);
    const routerLlm = new ScriptedClient([{ effort: "low" }]);
    const planner = ReactPlanner.fromSpec(withLlm({ reasoningEffort: "auto" }), {
      llm,
      routerLlm,
      ...injectables(),
    });
    const log = createEventLog();
    const result = await planner.run("What time is it?", { onEvent: log.onEvent });
    expect(routerLlm.calls[0]?.purpose).toBe("route");
    expect(routerLlm.calls[0]?.messages.at(-1)?.content).toBe("What time is it?");
    expect(llm.calls[0]?.reasoningEffort).toBe("low");
    expect(log.ofType("llm_call").map((event) => event.data.purpose)).toEqual(["route", "plan"]);
    expect(result.metadata?.llmCalls).toBe(2);
  });

  it("auto without a router asks the main LLM, and an unusable answer means medium", async () => {
    const llm = new ScriptedClient(["no idea", "still no idea", answer("ok")]);
    const planner = ReactPlanner.fromSpec(withLlm({ reasoningEffort: "auto" }), { llm, ...injectables() });
    await planner.run("x");
    expect(llm.calls.map((entry) => entry.purpose)).toEqual(["route", "route", "plan"]);
    expect(llm.calls[2]?.reasoningEffort).toBe("medium");
  });

  it("auto with candidate models: the routed model runs the planning calls", async () => {
    const main = new ScriptedClient([], { model: "big" });
    const small = new ScriptedClient([answer("quick answer")], { model: "small" });
    const routerLlm = new ScriptedClient([{ effort: "low", model: "small" }]);
    const candidate: LlmConfig & { id: string; description: string } = {
      id: "small",
      description: "Fast and cheap, for lookups",
      provider: "openai",
      model: "gpt-small",
      temperature: 0,
    };
    const spec = withLlm(
      { provider: "openai", model: "gpt-big", reasoningEffort: "auto" },
      { candidateLlms: [candidate] },
    );
    const made: string[] = [];
    const planner = ReactPlanner.fromSpec(spec, {
      llm: main,
      routerLlm,
      createLlmClient: (config) => {
        made.push(config.model);
        return small;
      },
      ...injectables(),
    });
    const log = createEventLog();
    await planner.run("Capital of France?", { onEvent: log.onEvent });
    expect(made).toEqual(["gpt-small"]);
    expect(routerLlm.calls[0]?.messages[0]?.content).toContain("- small: Fast and cheap, for lookups");
    expect(main.calls).toHaveLength(0);
    expect(small.calls[0]?.reasoningEffort).toBe("low");
    expect(log.ofType("llm_call").at(-1)?.data.model).toBe("small");
  });

  it("a candidate on the main endpoint without its own client runs as a model name on the main client", async () => {
    const main = new ScriptedClient([answer("ok")]);
    const routerLlm = new ScriptedClient([{ effort: "high", model: "deep" }]);
    const spec = withLlm(
      { provider: "openai", model: "gpt-big", reasoningEffort: "auto" },
      {
        candidateLlms: [
          { id: "deep", description: "Deep thinker", provider: "openai", model: "o-deep", temperature: 0 },
        ],
      },
    );
    const planner = ReactPlanner.fromSpec(spec, { llm: main, routerLlm, ...injectables() });
    await planner.run("Prove it");
    expect(main.calls[0]).toMatchObject({ model: "o-deep", reasoningEffort: "high" });
  });

  it("builds the summarizer and router from the spec through createLlmClient", async () => {
    const made: string[] = [];
    const spec = withLlm(
      { reasoningEffort: "auto" },
      {
        routerLlm: { provider: "offline", model: "router", temperature: 0 },
        summarizerLlm: { provider: "offline", model: "summarizer", temperature: 0 },
      },
    );
    const router = new ScriptedClient([{ effort: "medium" }]);
    const planner = ReactPlanner.fromSpec(spec, {
      llm: new ScriptedClient([scriptedReply(answer("ok"))]),
      createLlmClient: (config) => {
        made.push(config.model);
        return config.model === "router" ? router : new ScriptedClient();
      },
      ...injectables(),
    });
    await planner.run("x");
    expect(made.sort()).toEqual(["router", "summarizer"]);
    expect(router.calls).toHaveLength(1);
  });
});
