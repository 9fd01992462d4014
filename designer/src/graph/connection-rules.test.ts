import { describe, expect, it } from "vitest";
import { applySpecChange } from "../store/apply-spec-change.js";
import { makeSpec } from "../testing/make-spec.js";
import { createSpecEdge, getConnectChange, getConnectionProblem } from "./connection-rules.js";
import { getOrderingChain } from "./get-ordering-chain.js";

describe("connection rules", () => {
  const spec = makeSpec({ edges: [{ id: "alpha-beta", kind: "order", source: "alpha", target: "beta" }] });

  it("refuses self edges, duplicates of the same kind and non-tools", () => {
    expect(getConnectionProblem(spec, { source: "alpha", target: "alpha", kind: "order" })).toMatch(/itself/);
    expect(getConnectionProblem(spec, { source: "alpha", target: "beta", kind: "order" })).toMatch(/already/);
    expect(getConnectionProblem(spec, { source: "alpha", target: "group:x", kind: "order" })).toMatch(
      /two tools/,
    );
    expect(getConnectionProblem(spec, { source: "alpha", target: "beta", kind: "auto_seq" })).toBeNull();
  });

  it("creates unique slug ids", () => {
    expect(createSpecEdge(spec, { source: "alpha", target: "beta", kind: "auto_seq" }).id).toBe(
      "alpha-beta-2",
    );
    expect(createSpecEdge(spec, { source: "Fetch_URL", target: "beta", kind: "order" }).id).toBe(
      "fetch_url-beta",
    );
  });

  it("turns on autoSeq for the target of a new auto-seq edge, in one change", () => {
    const change = getConnectChange(spec, { source: "beta", target: "gamma", kind: "auto_seq" });
    const next = applySpecChange(spec, change ?? { type: "batch", label: "", changes: [] });
    expect(next.edges.at(-1)).toEqual({
      id: "beta-gamma",
      kind: "auto_seq",
      source: "beta",
      target: "gamma",
    });
    expect(next.tools.find((tool) => tool.name === "gamma")?.autoSeq).toBe(true);
    expect(next.planner.autoSeq).toEqual({ ...spec.planner.autoSeq, enabled: true });
    expect(getConnectChange(spec, { source: "alpha", target: "alpha", kind: "order" })).toBeNull();
  });

  it("leaves planner options alone for order edges and when auto-seq is already on", () => {
    expect(getConnectChange(spec, { source: "beta", target: "gamma", kind: "order" })).toMatchObject({
      type: "addEdge",
    });
    const enabled = {
      ...spec,
      planner: { ...spec.planner, autoSeq: { ...spec.planner.autoSeq, enabled: true } },
    };
    const change = getConnectChange(enabled, { source: "beta", target: "gamma", kind: "auto_seq" });
    expect(change?.type === "batch" ? change.changes.map((item) => item.type) : []).toEqual([
      "addEdge",
      "updateTool",
    ]);
  });
});

describe("getOrderingChain", () => {
  it("sorts the tools of order edges topologically and reports cycles", () => {
    const spec = makeSpec({
      edges: [
        { id: "b-c", kind: "order", source: "beta", target: "gamma" },
        { id: "a-b", kind: "order", source: "alpha", target: "beta" },
        { id: "x", kind: "auto_seq", source: "gamma", target: "alpha" },
      ],
    });
    expect(getOrderingChain(spec)).toEqual({ chain: ["alpha", "beta", "gamma"], cycle: [] });
    const cyclic = applySpecChange(spec, {
      type: "addEdge",
      edge: { id: "c-a", kind: "order", source: "gamma", target: "alpha" },
    });
    expect(getOrderingChain(cyclic)).toEqual({ chain: [], cycle: ["alpha", "beta", "gamma"] });
  });
});
