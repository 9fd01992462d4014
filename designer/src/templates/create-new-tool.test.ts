import type { ToolInfo } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createModuleTool } from "./create-new-tool.js";

const info: ToolInfo = {
  name: "send_email",
  desc: "Send an email",
  sideEffects: "external",
  tags: ["mail"],
  authScopes: ["mail.send"],
  safetyNotes: "Sends real mail.",
  requiresApproval: true,
  argsSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  outSchema: { type: "object", properties: { sent: { type: "boolean" } } },
  extra: {},
};

describe("createModuleTool", () => {
  it("copies the module's safety metadata, its approval included", () => {
    const tool = createModuleTool({ info, taken: [] });
    expect(tool).toMatchObject({
      name: "send_email",
      sideEffects: "external",
      requiresApproval: true,
      authScopes: ["mail.send"],
      safetyNotes: "Sends real mail.",
      impl: { kind: "module", ref: "send_email" },
    });
  });

  it("asks for no approval when the module does not, or when an older server does not say", () => {
    expect(createModuleTool({ info: { ...info, requiresApproval: false }, taken: [] }).requiresApproval).toBe(
      false,
    );
    const { requiresApproval: _omitted, ...older } = info;
    expect(createModuleTool({ info: older, taken: ["send_email"] })).toMatchObject({
      name: "send_email_2",
      requiresApproval: false,
    });
  });
});
