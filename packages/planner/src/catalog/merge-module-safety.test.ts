import { PlannerOptions, type ToolSpecInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultApprovalGate } from "../tools/approval-gate.js";
import { buildCatalog } from "./catalog.js";
import { getStricterSideEffect, SIDE_EFFECT_ORDER } from "./merge-module-safety.js";
import { ReactPlanner } from "../loop/react-planner.js";
import { answer, call } from "../testing/run-harness.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { defineTool } from "./tool.js";

const sent: string[] = [];
const sendEmail = defineTool({
  name: "send_email",
  desc: "Send an email",
  args: z.object({ to: z.string() }),
  out: z.object({ sent: z.boolean() }),
  sideEffects: "external",
  requiresApproval: true,
  authScopes: ["mail.send"],
  safetyNotes: "Sends real mail.",
  timeoutMs: 5_000,
  retry: { maxAttempts: 1 },
  costUsd: 0.02,
  run: ({ to }) => {
    sent.push(to);
    return { sent: true };
  },
});

/** What the designer saved before it copied requiresApproval: the spec's defaults (pure, no approval). */
const naiveSpec: ToolSpecInput = { name: "mailer", impl: { kind: "module", ref: "send_email" } };

function mailer(overrides: Partial<ToolSpecInput> = {}) {
  const catalog = buildCatalog({ specTools: [{ ...naiveSpec, ...overrides }], moduleTools: [sendEmail] });
  const tool = catalog.get("mailer");
  if (tool === undefined) throw new Error("mailer missing");
  return tool;
}

describe("a spec tool never weakens its module tool's safety metadata", () => {
  it("keeps the module's approval and side effect when the spec says pure and no approval", () => {
    const tool = mailer();
    expect(tool).toMatchObject({ sideEffects: "external", requiresApproval: true });
    const decision = defaultApprovalGate({
      tool,
      args: { to: "a@example.com" },
      source: "llm",
      options: PlannerOptions.parse({}),
      approved: false,
    });
    expect(decision).toMatchObject({ pause: true, payload: { tool: "mailer", why: "requires_approval" } });
  });

  it("pauses a run before the module tool runs, whatever the spec says", async () => {
    sent.length = 0;
    const catalog = buildCatalog({ specTools: [naiveSpec], moduleTools: [sendEmail] });
    const llm = new ScriptedClient([call("mailer", { to: "dana@example.com" }), answer("done")]);
    const result = await new ReactPlanner({ llm, catalog }).run("mail Dana");
    expect(result).toMatchObject({ kind: "pause", reason: "approval_required" });
    expect(sent).toEqual([]);
  });

  it("takes the stricter side effect and approval from either side", () => {
    const reader = defineTool({ ...sendEmail, name: "reader", sideEffects: "read", requiresApproval: false });
    const catalog = buildCatalog({
      specTools: [
        {
          name: "stricter_spec",
          sideEffects: "write",
          requiresApproval: true,
          impl: { kind: "module", ref: "reader" },
        },
        { name: "plain_spec", impl: { kind: "module", ref: "reader" } },
      ],
      moduleTools: [reader],
    });
    expect(catalog.get("stricter_spec")).toMatchObject({ sideEffects: "write", requiresApproval: true });
    expect(catalog.get("plain_spec")).toMatchObject({ sideEffects: "read", requiresApproval: false });
  });

  it("unites auth scopes, keeps both safety notes, the shorter timeout, the fewer attempts, the higher cost", () => {
    const tool = mailer({
      authScopes: ["contacts.read"],
      safetyNotes: "Only to colleagues.",
      timeoutMs: 60_000,
      retry: { maxAttempts: 3, backoffMs: 50, maxBackoffMs: 100 },
      costUsd: 0,
    });
    expect(tool.authScopes).toEqual(["mail.send", "contacts.read"]);
    expect(tool.safetyNotes).toBe("Sends real mail. Only to colleagues.");
    expect(tool.timeoutMs).toBe(5_000);
    expect(tool.retry).toEqual({ maxAttempts: 1, backoffMs: 50, maxBackoffMs: 100 });
    expect(tool.costUsd).toBe(0.02);
    expect(mailer({ timeoutMs: 1_000 }).timeoutMs).toBe(1_000);
  });

  it("keeps the module's retry limit when the spec sets none (the planner default would retry)", () => {
    expect(mailer().retry).toEqual({ maxAttempts: 1 });
  });

  it("leaves tools of other kinds with the spec's own metadata", () => {
    const catalog = buildCatalog({
      specTools: [
        { name: "fetcher", sideEffects: "read", impl: { kind: "http", url: "https://example.com" } },
      ],
      resolveImpl: () => async () => ({}),
    });
    expect(catalog.get("fetcher")).toMatchObject({ sideEffects: "read", requiresApproval: false });
  });
});

describe("getStricterSideEffect", () => {
  it("orders pure < read < stateful < write < external, either way round", () => {
    expect(SIDE_EFFECT_ORDER).toEqual(["pure", "read", "stateful", "write", "external"]);
    for (const [index, lower] of SIDE_EFFECT_ORDER.entries()) {
      for (const higher of SIDE_EFFECT_ORDER.slice(index)) {
        expect(getStricterSideEffect(lower, higher)).toBe(higher);
        expect(getStricterSideEffect(higher, lower)).toBe(higher);
      }
    }
  });
});
