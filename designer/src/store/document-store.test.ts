import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { createDocumentStore, getIsDirty } from "./document-store.js";

function openStore() {
  const store = createDocumentStore({ spec: makeSpec() });
  store.getState().load({ spec: makeSpec(), agentId: "test-agent", version: 1 });
  return store;
}

describe("createDocumentStore", () => {
  it("undoes and redoes every change, restoring the exact earlier spec", () => {
    const store = openStore();
    const original = store.getState().spec;
    store.getState().dispatch({ type: "addTool", tool: makeTool("delta"), position: { x: 1, y: 2 } });
    store.getState().dispatch({ type: "renameTool", from: "alpha", to: "first" });
    const edited = store.getState().spec;
    expect(store.getState().undo()).toBe(true);
    expect(store.getState().spec.tools.map((tool) => tool.name)).toEqual(["alpha", "beta", "gamma", "delta"]);
    expect(store.getState().undo()).toBe(true);
    expect(store.getState().spec).toBe(original);
    expect(store.getState().undo()).toBe(false);
    store.getState().redo();
    store.getState().redo();
    expect(store.getState().spec).toEqual(edited);
    expect(store.getState().redo()).toBe(false);
  });

  it("records nothing for a change that changes nothing, and a new change clears redo", () => {
    const store = openStore();
    expect(
      store.getState().dispatch({ type: "updateTool", name: "alpha", patch: { desc: "tool alpha" } }),
    ).toBe(false);
    expect(store.getState().past).toHaveLength(0);
    store.getState().dispatch({ type: "updateTool", name: "alpha", patch: { desc: "one" } });
    store.getState().undo();
    expect(store.getState().future).toHaveLength(1);
    store.getState().dispatch({ type: "updateTool", name: "alpha", patch: { desc: "two" } });
    expect(store.getState().future).toHaveLength(0);
  });

  it("merges typing in one field into one undo step until sealed", () => {
    const store = openStore();
    for (const desc of ["h", "he", "hel"]) {
      store
        .getState()
        .dispatch({ type: "updateTool", name: "alpha", patch: { desc } }, { coalesceKey: "alpha.desc" });
    }
    store.getState().seal();
    store
      .getState()
      .dispatch(
        { type: "updateTool", name: "alpha", patch: { desc: "help" } },
        { coalesceKey: "alpha.desc" },
      );
    expect(store.getState().past).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().spec.tools[0]?.desc).toBe("hel");
    store.getState().undo();
    expect(store.getState().spec.tools[0]?.desc).toBe("tool alpha");
    store.getState().redo();
    expect(store.getState().spec.tools[0]?.desc).toBe("hel");
  });

  it("groups the changes of a transaction into one undo step", () => {
    const store = openStore();
    store.getState().transact("duplicate", () => {
      store.getState().dispatch({ type: "addTool", tool: makeTool("x"), position: { x: 0, y: 0 } });
      store.getState().dispatch({ type: "addTool", tool: makeTool("y"), position: { x: 0, y: 0 } });
    });
    expect(store.getState().past).toHaveLength(1);
    expect(store.getState().past[0]?.label).toBe("duplicate");
    store.getState().undo();
    expect(store.getState().spec.tools).toHaveLength(3);
    store.getState().redo();
    expect(store.getState().spec.tools).toHaveLength(5);
  });

  it("tracks unsaved changes against the saved point, through undo and redo", () => {
    const store = openStore();
    expect(getIsDirty(store.getState())).toBe(false);
    store.getState().dispatch({ type: "updateAgent", patch: { name: "Renamed" } });
    expect(getIsDirty(store.getState())).toBe(true);
    store.getState().markSaved({ agentId: "test-agent", version: 2 });
    expect(getIsDirty(store.getState())).toBe(false);
    expect(store.getState().baseVersion).toBe(2);
    store.getState().undo();
    expect(getIsDirty(store.getState())).toBe(true);
    store.getState().redo();
    expect(getIsDirty(store.getState())).toBe(false);
    const loads = store.getState().loadCount;
    store.getState().load({ spec: makeSpec(), agentId: null, version: null });
    expect(getIsDirty(store.getState())).toBe(true);
    expect(store.getState().loadCount).toBe(loads + 1);
  });

  it("keeps the selection out of history and prunes it after deletes and renames", () => {
    const store = openStore();
    store.getState().setSelection({ nodes: ["alpha", "beta"], edges: [] });
    expect(store.getState().past).toHaveLength(0);
    store.getState().dispatch({ type: "renameTool", from: "alpha", to: "first" });
    expect(store.getState().selection.nodes).toEqual(["first", "beta"]);
    store.getState().dispatch({ type: "removeElements", tools: ["beta"] });
    expect(store.getState().selection.nodes).toEqual(["first"]);
    store.getState().undo();
    expect(store.getState().selection.nodes).toEqual(["first"]);
  });
  it("changes nothing while read-only (a viewer): no edit, transaction or undo makes it dirty", () => {
    let readOnly = false;
    const store = createDocumentStore({ spec: makeSpec(), isReadOnly: () => readOnly });
    store.getState().load({ spec: makeSpec(), agentId: "test-agent", version: 1 });
    store.getState().dispatch({ type: "updateTool", name: "alpha", patch: { desc: "before" } });
    store.getState().markSaved({ agentId: "test-agent", version: 2 });
    const saved = store.getState().spec;
    readOnly = true;
    expect(store.getState().dispatch({ type: "updateTool", name: "alpha", patch: { desc: "typed" } })).toBe(
      false,
    );
    store
      .getState()
      .transact("Add", () =>
        store.getState().dispatch({ type: "addTool", tool: makeTool("delta"), position: { x: 0, y: 0 } }),
      );
    expect(store.getState().undo()).toBe(false);
    expect(store.getState().spec).toBe(saved);
    expect(getIsDirty(store.getState())).toBe(false);
    // loading another agent still works: reading is not editing
    store.getState().load({ spec: makeSpec({ name: "Other" }), agentId: "other", version: 1 });
    expect(store.getState().spec.name).toBe("Other");
  });
});
