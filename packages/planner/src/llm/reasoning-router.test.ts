import { describe, expect, it } from "vitest";
import { resolveReasoningEffort, routeReasoning } from "./reasoning-router.js";
import { ScriptedClient } from "../testing/scripted-client.js";

const candidates = [
  { id: "small", description: "fast and cheap" },
  { id: "large", description: "careful reasoning" },
];

describe("routeReasoning", () => {
  it("takes the router's effort from a short JSON-only call", async () => {
    const llm = new ScriptedClient([{ effort: "low" }]);
    const route = await routeReasoning({ llm, query: "What time is it in Lima?" });
    expect(route).toMatchObject({ effort: "low", usage: { llmCalls: 1 } });
    expect(route.modelId).toBeUndefined();
    expect(route.fallbackReason).toBeUndefined();
    const [call] = llm.calls;
    expect(call).toMatchObject({ purpose: "route", responseFormat: "json_object" });
    expect(call?.messages[0]?.content).toContain('{"effort"');
    expect(call?.messages[1]?.content).toBe("What time is it in Lima?");
  });

  it("picks one of the candidate models", async () => {
    const llm = new ScriptedClient(['```json\n{"effort": "high", "model": "large"}\n```']);
    const route = await routeReasoning({ llm, query: "Plan a migration", candidates });
    expect(route).toMatchObject({ effort: "high", modelId: "large" });
    expect(llm.calls[0]?.messages[0]?.content).toContain("- small: fast and cheap");
  });

  it("retries an unusable reply once", async () => {
    const llm = new ScriptedClient([
      { effort: "high", model: "huge" },
      { effort: "medium", model: "small" },
    ]);
    const route = await routeReasoning({ llm, query: "q", candidates });
    expect(route).toMatchObject({ effort: "medium", modelId: "small", usage: { llmCalls: 2 } });
    expect(llm.calls[1]?.messages.at(-1)?.content).toContain('"huge" is not one of the models');
  });

  it("falls back to medium on the main model after one retry", async () => {
    const llm = new ScriptedClient(["no idea", { effort: "extreme" }, { effort: "low" }]);
    const route = await routeReasoning({ llm, query: "q" });
    expect(route.effort).toBe("medium");
    expect(route.modelId).toBeUndefined();
    expect(route.fallbackReason).toContain("expected");
    expect(llm.calls).toHaveLength(2);
  });

  it("falls back when the router call fails, but not when the run is cancelled", async () => {
    const failing = new ScriptedClient([new Error("router down")]);
    expect(await routeReasoning({ llm: failing, query: "q" })).toMatchObject({
      effort: "medium",
      fallbackReason: "router call failed: router down",
    });
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    const llm = new ScriptedClient([{ effort: "low" }]);
    await expect(routeReasoning({ llm, query: "q", signal: controller.signal })).rejects.toThrow("cancelled");
  });
});

describe("resolveReasoningEffort", () => {
  it("prefers a configured effort, routes auto, and leaves unset alone", () => {
    expect(resolveReasoningEffort("high", "low")).toBe("high");
    expect(resolveReasoningEffort("auto", "low")).toBe("low");
    expect(resolveReasoningEffort("auto", undefined)).toBe("medium");
    expect(resolveReasoningEffort(undefined, "low")).toBeUndefined();
  });
});
