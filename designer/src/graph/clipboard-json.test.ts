import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { getClipboardSlice, getPasteChange } from "./clipboard-slice.js";
import { getClipboardJson, parsePastedJson } from "./clipboard-json.js";

describe("clipboard JSON", () => {
  it("copies a lone tool as its tool JSON, and that JSON pastes back as the same tool", () => {
    const spec = makeSpec({ tools: [makeTool("lookup"), makeTool("other")] });
    const slice = getClipboardSlice(spec, { nodes: ["lookup"], edges: [] });
    if (!slice) throw new Error("no slice");
    const text = getClipboardJson(slice);
    expect(JSON.parse(text)).toMatchObject({ name: "lookup", impl: { kind: "mock" } });
    const pasted = parsePastedJson(text);
    if (!pasted.ok) throw new Error(pasted.message);
    expect(pasted.source).toBe("tool");
    expect(pasted.slice.tools).toEqual(slice.tools);
    // the name is taken in the spec it came from: the paste gets a suffix
    const { change } = getPasteChange(spec, { slice: pasted.slice, offset: { x: 0, y: 0 } });
    expect(change).toMatchObject({ type: "addElements", tools: [{ name: "lookup_2" }] });
  });

  it("copies several tools with the edges between them and pastes them back", () => {
    const base = makeSpec({ tools: [makeTool("a"), makeTool("b"), makeTool("c")] });
    const spec = { ...base, edges: [{ id: "a-b", kind: "order" as const, source: "a", target: "b" }] };
    const slice = getClipboardSlice(spec, { nodes: ["a", "b"], edges: [] });
    if (!slice) throw new Error("no slice");
    const pasted = parsePastedJson(getClipboardJson(slice));
    if (!pasted.ok) throw new Error(pasted.message);
    expect(pasted.slice.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
    expect(pasted.slice.edges).toEqual(spec.edges);
    expect(pasted.slice.positions).toEqual(slice.positions);
  });

  it("takes an agent spec's tools and edges, and a list of tools", () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "pasted",
      name: "Pasted agent",
      tools: [makeTool("one"), makeTool("two")],
      edges: [{ id: "one-two", kind: "auto_seq", source: "one", target: "two" }],
    });
    const agent = parsePastedJson(JSON.stringify(spec));
    expect(agent).toMatchObject({ ok: true, source: "agent", agentName: "Pasted agent" });
    if (agent.ok) expect(agent.slice.edges).toHaveLength(1);
    const list = parsePastedJson(JSON.stringify([makeTool("x"), makeTool("y")]));
    expect(list).toMatchObject({ ok: true, source: "tools" });
    if (list.ok) expect(Object.keys(list.slice.positions)).toEqual(["x", "y"]);
  });

  it("refuses what is not a tool or an agent, saying what is wrong", () => {
    expect(parsePastedJson("hello")).toMatchObject({ ok: false, message: /does not hold JSON/ });
    expect(parsePastedJson("42")).toMatchObject({ ok: false, message: /holds a number/ });
    expect(parsePastedJson(JSON.stringify({ name: "x" }))).toMatchObject({
      ok: false,
      message: /Not a valid tool: impl .*missing/,
    });
    const badKind = parsePastedJson(JSON.stringify({ name: "x", impl: { kind: "teleport" } }));
    expect(badKind).toMatchObject({ ok: false, message: /impl\.kind/ });
    const badName = parsePastedJson(JSON.stringify({ name: "has spaces", impl: { kind: "mock" } }));
    expect(badName).toMatchObject({ ok: false, message: /^Not a valid tool: name / });
    expect(parsePastedJson(JSON.stringify({ version: 1, id: "x" }))).toMatchObject({
      ok: false,
      message: /Not a valid agent: name is missing/,
    });
  });
});
