import { validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { AGENT_TEMPLATE_IDS, createAgentFromTemplate } from "./agent-templates.js";
import { createNewTool, NEW_TOOL_KINDS } from "./create-new-tool.js";

describe("templates", () => {
  it.each(AGENT_TEMPLATE_IDS)("template %s is a valid spec without errors", (template) => {
    const spec = createAgentFromTemplate({ template, id: "my-agent", name: "My agent" });
    const result = validateAgentSpec(spec);
    expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("creates new tools of every kind with unique names and no errors", () => {
    const taken = ["mock_tool"];
    const tools = NEW_TOOL_KINDS.map((kind) => createNewTool({ kind, taken, agentIds: ["helper"] }));
    expect(tools.map((tool) => tool.name)).toEqual(["mock_tool_2", "http_tool", "llm_tool", "subagent"]);
    const spec = createAgentFromTemplate({ template: "blank", id: "a", name: "A" });
    const result = validateAgentSpec({ ...spec, tools });
    expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});
