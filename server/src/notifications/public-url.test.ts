import { describe, expect, it } from "vitest";
import { ConfigError, readServerConfig } from "../config.js";
import { getDesignerLink } from "./notification-body.js";

describe("WADDLE_PUBLIC_URL", () => {
  it("is read as the address people open Waddle at: a path is kept, trailing slashes dropped", () => {
    expect(readServerConfig({}).publicUrl).toBeUndefined();
    expect(readServerConfig({ WADDLE_PUBLIC_URL: " https://waddle.example.com/ " }).publicUrl).toBe(
      "https://waddle.example.com",
    );
    expect(readServerConfig({ WADDLE_PUBLIC_URL: "http://10.0.0.5:8787/tools/waddle//" }).publicUrl).toBe(
      "http://10.0.0.5:8787/tools/waddle",
    );
  });

  it("stops the start on anything but an http(s) address without query, fragment or user", () => {
    for (const value of [
      "waddle.example.com",
      "ftp://x.example",
      "https://x.example/?a=1",
      "https://x.example/#/a",
      "https://u:p@x.example",
    ]) {
      expect(() => readServerConfig({ WADDLE_PUBLIC_URL: value }), value).toThrow(ConfigError);
    }
    expect(() => readServerConfig({ WADDLE_PUBLIC_URL: "nope" })).toThrow(/WADDLE_PUBLIC_URL must be/);
  });

  it("is where notifications link: the run, else the session, else the agent, as the designer routes them", () => {
    const publicUrl = "https://waddle.example.com/tools/";
    expect(getDesignerLink({ publicUrl, agentId: "triage", runId: "run_1", sessionId: "ses_1" })).toBe(
      "https://waddle.example.com/tools/#/agents/triage/runs/run_1",
    );
    expect(getDesignerLink({ publicUrl, agentId: "triage", sessionId: "ses_1" })).toBe(
      "https://waddle.example.com/tools/#/agents/triage/sessions/ses_1",
    );
    expect(getDesignerLink({ publicUrl, agentId: "triage" })).toBe(
      "https://waddle.example.com/tools/#/agents/triage",
    );
    expect(getDesignerLink({ publicUrl })).toBeUndefined();
  });
});
