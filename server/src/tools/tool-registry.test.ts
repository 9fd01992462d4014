import { ToolInfo } from "@waddle/protocol";
import { defineTool } from "@waddle/planner";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "./tool-registry.js";

const base = { args: z.object({ to: z.string() }), out: z.object({ sent: z.boolean() }) };

describe("ToolRegistry", () => {
  it("lists a module tool's own requiresApproval (and leaves it out when the author did not set it)", () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        ...base,
        name: "send_email",
        desc: "Sends an email",
        sideEffects: "external",
        requiresApproval: true,
        run: () => ({ sent: true }),
      }),
      "user/send-email.ts",
    );
    registry.register(
      defineTool({ ...base, name: "draft_email", desc: "Drafts", run: () => ({ sent: false }) }),
      "user/draft-email.ts",
    );
    const [draft, send] = registry.list();
    expect(send).toMatchObject({ name: "send_email", sideEffects: "external", requiresApproval: true });
    expect(draft).not.toHaveProperty("requiresApproval");
    expect(ToolInfo.safeParse(send).success).toBe(true);
  });
});
