import { describe, expect, it } from "vitest";
import { getAgentRouteHash, parseAgentRoute } from "./run-route.js";

describe("parseAgentRoute", () => {
  it("reads an agent and a run", () => {
    expect(parseAgentRoute("#/agents/support-triage")).toEqual({ agentId: "support-triage", runId: null });
    expect(parseAgentRoute("#/agents/support-triage/runs/run_0a1b2c")).toEqual({
      agentId: "support-triage",
      runId: "run_0a1b2c",
    });
  });

  it("reads a chat", () => {
    expect(parseAgentRoute("#/agents/support-triage/sessions/ses_4f9c2a1b")).toEqual({
      agentId: "support-triage",
      runId: null,
      sessionId: "ses_4f9c2a1b",
    });
    expect(parseAgentRoute("#/agents/a/sessions/run_1")).toBeNull();
    expect(parseAgentRoute("#/agents/a/sessions/ses_1/runs/run_1")).toBeNull();
  });

  it("refuses anything else", () => {
    expect(parseAgentRoute("")).toBeNull();
    expect(parseAgentRoute("#/agents/")).toBeNull();
    expect(parseAgentRoute("#/agents/Bad Id")).toBeNull();
    expect(parseAgentRoute("#/agents/a/runs/")).toBeNull();
    expect(parseAgentRoute("#/agents/a/runs/x/y")).toBeNull();
  });
});

describe("getAgentRouteHash", () => {
  it("round-trips", () => {
    expect(getAgentRouteHash({ agentId: "a", runId: "run_1" })).toBe("#/agents/a/runs/run_1");
    expect(parseAgentRoute(getAgentRouteHash({ agentId: "a", runId: "run_1" }))).toEqual({
      agentId: "a",
      runId: "run_1",
    });
    expect(getAgentRouteHash({ agentId: "a" })).toBe("#/agents/a");
    expect(getAgentRouteHash({ agentId: null, runId: "run_1" })).toBe("");
    expect(getAgentRouteHash({ agentId: "a", sessionId: "ses_1" })).toBe("#/agents/a/sessions/ses_1");
    expect(parseAgentRoute(getAgentRouteHash({ agentId: "a", sessionId: "ses_1" }))?.sessionId).toBe("ses_1");
  });
});
