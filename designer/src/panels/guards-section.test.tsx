import type { AgentSpecInput } from "@waddle/protocol";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EditorContext } from "../editor/editor-context.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { makeSpec } from "../testing/make-spec.js";
import { GuardsSection } from "./guards-section.js";

const base = { onError: "block" as const, timeoutMs: 10_000 };
const tagsOf = (html: string, testId: string) =>
  html.match(new RegExp(`<[a-z]+\\b[^>]*data-testid="${testId}"[^>]*>`, "g")) ?? [];
/** The html of one guard's row (up to the next row). */
const rowOf = (html: string, name: string) => {
  const start = html.indexOf(`data-guard="${name}"`);
  const end = html.indexOf('data-testid="guard-row"', start + 1);
  return html.slice(start, end < 0 ? undefined : end);
};

function render(guards: AgentSpecInput["guards"]) {
  const editor = createTestEditor({ spec: makeSpec({ guards }) });
  return renderToString(
    <EditorContext.Provider value={editor}>
      <GuardsSection />
    </EditorContext.Provider>,
  ).replace(/<!-- -->/g, "");
}

describe("Settings → Guards", () => {
  it("lists each guard with its stage, check, options, action, tools and a sample box", () => {
    const html = render([
      {
        ...base,
        name: "pii",
        on: "tool_result",
        check: { kind: "pii", types: ["email", "card"] },
        action: "redact",
        tools: ["alpha"],
      },
      {
        ...base,
        name: "tone",
        on: "output",
        check: { kind: "llm", prompt: "Fail if rude." },
        action: "block",
        message: "Rude.",
      },
    ]);
    expect(tagsOf(html, "guards-section")[0]).toMatch(/ open=""/);
    expect(tagsOf(html, "guard-row").map((tag) => tag.match(/data-guard="([^"]+)"/)?.[1])).toEqual([
      "pii",
      "tone",
    ]);
    expect(tagsOf(html, "guard-sample-input")).toHaveLength(2);
    expect(tagsOf(html, "guard-add")).toHaveLength(1);
    const pii = rowOf(html, "pii");
    expect(pii).toContain("Personal data on alpha → redact");
    // the chosen kinds are ticked, the others not
    expect(pii).toMatch(/data-pii-type="email" checked=""/);
    expect(pii).not.toMatch(/data-pii-type="phone" checked=""/);
    expect(pii).toMatch(/data-tool="alpha" checked=""/);
    expect(pii).not.toMatch(/data-tool="beta" checked=""/);
    const tone = rowOf(html, "tone");
    // a model judge finds nothing to mask: no redact to choose
    expect(tone).not.toContain('<option value="redact"');
    expect(tone).toContain('<option value="block" selected="">Block</option>');
    expect(tone).toContain("Fail if rude.");
    expect(tone).not.toContain('data-testid="guard-1-tools"');
  });

  it("shows the validator's issues at their field: a bad expression, a tool that is not there, a duplicate name", () => {
    const html = render([
      {
        ...base,
        name: "words",
        on: "output",
        check: { kind: "deny_words", words: ["ok", "(open"], regex: true },
        action: "block",
      },
      {
        ...base,
        name: "words",
        on: "tool_result",
        check: { kind: "secrets" },
        action: "flag",
        tools: ["ghost"],
      },
    ]);
    const first = rowOf(html, "words");
    expect(first).toContain("&quot;(open&quot; is not a valid regular expression");
    expect(first).toContain("$.guards[0].check.words[1]");
    const second = html.slice(html.lastIndexOf('data-guard="words"'));
    expect(second).toContain("Another guard is already named &quot;words&quot;.");
    expect(second).toContain("$.guards[1].tools[0]");
    // the missing tool stays listed, ticked, so that it can be unticked
    expect(second).toMatch(/data-tool="ghost" checked=""/);
  });

  it("starts closed, with only the way to add one, when the agent has none", () => {
    const html = render([]);
    expect(tagsOf(html, "guards-section")[0]).not.toMatch(/ open=""/);
    expect(html).toContain("none");
    expect(tagsOf(html, "guard-row")).toHaveLength(0);
    expect(tagsOf(html, "guard-add-kind")).toHaveLength(1);
  });
});
