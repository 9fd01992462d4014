import { AgentSpec } from "@waddle/protocol";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { exportAgent } from "../export-agent.js";

describe("PenguiFlow export of an a2a tool", () => {
  it("leaves its body a NotImplementedError that names the remote agent's URL, and says so", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "asks-remote",
      name: "Asks remote",
      tools: [
        {
          name: "ask_helper",
          desc: "Asks the helper agent",
          argsSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
          impl: { kind: "a2a", url: "https://agents.example.com/a2a/helper" },
        },
      ],
    });
    const exported = await exportAgent({ spec, format: "penguiflow", getAgent: async () => undefined });
    const files = unzipSync(exported.body as Uint8Array);
    const catalog = strFromU8(files["asks-remote/catalog.py"]!);
    expect(catalog).toMatch(/raise NotImplementedError\(".*https:\/\/agents\.example\.com\/a2a\/helper/);
    expect(strFromU8(files["asks-remote/README.md"]!)).toContain("ask_helper (a2a tool) body");
  });
});
