import { validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { applySpecChange } from "../store/apply-spec-change.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { getClipboardSlice, getPasteChange, getPasteOffset } from "./clipboard-slice.js";

const spec = makeSpec({
  tools: ["alpha", "beta", "gamma", "merge"].map((name) => makeTool(name)),
  edges: [
    { id: "a-b", kind: "order", source: "alpha", target: "beta" },
    { id: "b-m", kind: "auto_seq", source: "beta", target: "merge" },
  ],
  groups: [
    {
      id: "pair",
      kind: "parallel",
      name: "Pair",
      members: ["beta", "gamma"],
      join: { tool: "merge", args: {}, inject: {} },
    },
  ],
  layout: {
    nodes: {
      alpha: { x: 0, y: 0 },
      "group:pair": { x: 400, y: 0, width: 300, height: 300 },
      beta: { x: 24, y: 48 },
      gamma: { x: 24, y: 170 },
      merge: { x: 800, y: 0 },
    },
  },
});

describe("copy and paste", () => {
  it("copies tools with the edges between them, at absolute positions", () => {
    const slice = getClipboardSlice(spec, { nodes: ["alpha", "beta"], edges: [] });
    expect(slice?.tools.map((tool) => tool.name)).toEqual(["alpha", "beta"]);
    expect(slice?.edges.map((edge) => edge.id)).toEqual(["a-b"]);
    expect(slice?.positions).toEqual({ alpha: { x: 0, y: 0 }, beta: { x: 424, y: 48 } });
    expect(getClipboardSlice(spec, { nodes: [], edges: ["a-b"] })).toBeNull();
  });

  it("pastes with fresh names, ids and references, keeping the spec valid", () => {
    const slice = getClipboardSlice(spec, { nodes: ["alpha", "beta"], edges: [] });
    if (!slice) throw new Error("nothing copied");
    const { change, selection } = getPasteChange(spec, { slice, offset: { x: 40, y: 40 } });
    const next = applySpecChange(spec, change);
    expect(next.tools.map((tool) => tool.name)).toEqual([
      "alpha",
      "beta",
      "gamma",
      "merge",
      "alpha_2",
      "beta_2",
    ]);
    expect(next.edges.at(-1)).toEqual({ id: "a-b-2", kind: "order", source: "alpha_2", target: "beta_2" });
    expect(next.layout.nodes.beta_2).toEqual({ x: 464, y: 88 });
    expect(selection.nodes).toEqual(["alpha_2", "beta_2"]);
    expect(validateAgentSpec(next).ok).toBe(true);
  });

  it("copies a whole group with its members and join", () => {
    const slice = getClipboardSlice(spec, { nodes: ["group:pair"], edges: [] });
    if (!slice) throw new Error("nothing copied");
    const { change, selection } = getPasteChange(spec, { slice, offset: { x: 0, y: 400 } });
    const next = applySpecChange(spec, change);
    expect(next.groups[1]).toMatchObject({
      id: "pair-2",
      members: ["beta_2", "gamma_2"],
      join: { tool: "merge" },
    });
    expect(next.layout.nodes["group:pair-2"]).toEqual({ x: 400, y: 400, width: 300, height: 300 });
    expect(next.layout.nodes.beta_2).toEqual({ x: 24, y: 48 });
    expect(selection.nodes).toEqual(["group:pair-2"]);
  });

  it("shifts each further paste of the same slice past the earlier copies", () => {
    const slice = getClipboardSlice(spec, { nodes: ["alpha"], edges: [] });
    if (!slice) throw new Error("nothing copied");
    expect(getPasteOffset(spec, { slice, step: 60 })).toEqual({ x: 60, y: 60 });
    const once = applySpecChange(spec, getPasteChange(spec, { slice, offset: { x: 60, y: 60 } }).change);
    expect(getPasteOffset(once, { slice, step: 60 })).toEqual({ x: 120, y: 120 });
    const twice = applySpecChange(
      once,
      getPasteChange(once, { slice, offset: getPasteOffset(once, { slice, step: 60 }) }).change,
    );
    expect(twice.layout.nodes.alpha_2).toEqual({ x: 60, y: 60 });
    expect(twice.layout.nodes.alpha_3).toEqual({ x: 120, y: 120 });
  });

  it("places a pasted group by its frame, not by its members", () => {
    const slice = getClipboardSlice(spec, { nodes: ["group:pair"], edges: [] });
    if (!slice) throw new Error("nothing copied");
    const once = applySpecChange(spec, getPasteChange(spec, { slice, offset: { x: 40, y: 40 } }).change);
    expect(getPasteOffset(once, { slice, step: 40 })).toEqual({ x: 80, y: 80 });
  });
});
