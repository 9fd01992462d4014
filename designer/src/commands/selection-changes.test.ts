import { describe, expect, it } from "vitest";
import { applySpecChange } from "../store/apply-spec-change.js";
import { makeSpec } from "../testing/make-spec.js";
import {
  getDeleteChange,
  getGroupSelectionChange,
  getLeaveGroupChange,
  getSelectAll,
} from "./selection-changes.js";

describe("selection changes", () => {
  it("groups the selected tools in a frame around them and ungroups them again", () => {
    const spec = makeSpec();
    const grouped = getGroupSelectionChange(spec, { nodes: ["alpha", "beta"], edges: [] });
    expect(grouped?.groupId).toBe("group");
    const next = applySpecChange(spec, grouped?.change ?? { type: "batch", label: "", changes: [] });
    expect(next.groups[0]).toMatchObject({ id: "group", name: "Parallel group", members: ["alpha", "beta"] });
    expect(next.layout.nodes["group:group"]).toMatchObject({ x: -24, y: -48 });
    expect(next.layout.nodes.alpha).toEqual({ x: 24, y: 48 });
    const left = applySpecChange(
      next,
      getLeaveGroupChange(next, { nodes: ["alpha", "beta"], edges: [] }) ?? {
        type: "batch",
        label: "",
        changes: [],
      },
    );
    expect(left.groups[0]?.members).toEqual([]);
    expect(left.layout.nodes.beta).toEqual({ x: 300, y: 0 });
    expect(getGroupSelectionChange(spec, { nodes: [], edges: [] })).toBeNull();
  });

  it("deletes what is selected and selects everything", () => {
    const spec = makeSpec({ edges: [{ id: "a-b", kind: "order", source: "alpha", target: "beta" }] });
    expect(getDeleteChange(spec, { nodes: ["gamma"], edges: ["a-b"] })).toEqual({
      type: "removeElements",
      tools: ["gamma"],
      groups: [],
      edges: ["a-b"],
    });
    expect(getDeleteChange(spec, { nodes: [], edges: [] })).toBeNull();
    expect(getSelectAll(spec)).toEqual({ nodes: ["alpha", "beta", "gamma"], edges: ["a-b"] });
  });
});
