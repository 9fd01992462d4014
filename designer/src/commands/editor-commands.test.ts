import { describe, expect, it } from "vitest";
import type { Editor } from "../editor/editor-context.js";
import { createEditorCommands } from "./editor-commands.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { makeSpec } from "../testing/make-spec.js";
import { NEW_TOOL_GAP } from "../graph/get-new-tool-position.js";
import { TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect } from "../model/geometry.js";

/** A real editor over real stores, its agent loaded as saved; the API answers nothing. */
function createLoadedEditor(): Editor {
  const editor = createTestEditor();
  editor.document.getState().load({
    spec: makeSpec({ edges: [{ id: "a-b", kind: "order", source: "alpha", target: "beta" }] }),
    agentId: "test-agent",
    version: 1,
  });
  return editor;
}

/** The canvas as commands see it: a fixed view, and a record of what it was asked to show. */
function attachCanvas(editor: Editor, view: Rect): Rect[] {
  const shown: Rect[] = [];
  editor.canvas.current = {
    fitView: () => undefined,
    fitAfterChange: () => undefined,
    reveal: () => undefined,
    getCenter: () => ({ x: view.x + view.width / 2, y: view.y + view.height / 2 }),
    getViewRect: () => view,
    showRect: (rect) => void shown.push(rect),
    getScreenSize: () => ({ width: view.width, height: view.height }),
    panTo: () => undefined,
  };
  return shown;
}

describe("adding a tool without a drop point", () => {
  it("puts it right of the right-most tool in view and widens the view when it lands outside", () => {
    const editor = createLoadedEditor();
    // alpha, beta, gamma at x 0, 300, 600; gamma is the right-most, half in view
    const shown = attachCanvas(editor, { x: -50, y: -50, width: 700, height: 300 });
    expect(editor.commands.execute("add-mock-tool", editor)).toBe(true);
    const position = editor.document.getState().spec.layout.nodes.mock_tool;
    expect(position).toEqual({ x: 840 + NEW_TOOL_GAP.x, y: 0 });
    expect(shown).toEqual([{ x: 840 + NEW_TOOL_GAP.x, y: 0, ...TOOL_NODE_SIZE }]);
  });

  it("widens the view only for the tool that lands outside it", () => {
    const editor = createLoadedEditor();
    const shown = attachCanvas(editor, { x: -50, y: -50, width: 1_400, height: 300 });
    editor.commands.execute("add-mock-tool", editor);
    editor.commands.execute("add-mock-tool", editor);
    const { nodes } = editor.document.getState().spec.layout;
    expect([nodes.mock_tool?.x, nodes.mock_tool_2?.x]).toEqual([936, 936 + 240 + NEW_TOOL_GAP.x]);
    expect(shown).toHaveLength(1);
  });
});

describe("editor commands", () => {
  it("have unique names and shortcuts", () => {
    const commands = createEditorCommands();
    expect(new Set(commands.map((command) => command.name)).size).toBe(commands.length);
    const keys = commands
      .flatMap((command) => [command.shortcut, ...(command.extraShortcuts ?? [])])
      .filter(Boolean);
    expect(new Set(keys.map((key) => key?.toLowerCase())).size).toBe(keys.length);
  });

  it("edit the document as one undo step each, and undo/redo walk back and forth", () => {
    const editor = createLoadedEditor();
    const run = (name: string) => editor.commands.execute(name, editor);
    const state = () => editor.document.getState();
    expect(run("delete")).toBe(false);
    expect(run("add-mock-tool")).toBe(true);
    expect(state().spec.tools.map((tool) => tool.name)).toContain("mock_tool");
    state().setSelection({ nodes: ["alpha", "beta"], edges: [] });
    run("group-selection");
    expect(state().spec.groups[0]?.members).toEqual(["alpha", "beta"]);
    expect(state().selection.nodes).toEqual(["group:group"]);
    run("duplicate");
    expect(state().spec.groups.map((group) => group.id)).toEqual(["group", "group-2"]);
    expect(state().spec.tools.map((tool) => tool.name)).toEqual([
      "alpha",
      "beta",
      "gamma",
      "mock_tool",
      "alpha_2",
      "beta_2",
    ]);
    state().setSelection({ nodes: ["gamma"], edges: ["a-b"] });
    run("toggle-prefer_nodes");
    run("flip-edge-kind");
    expect(state().spec.hints.prefer_nodes).toEqual(["gamma"]);
    expect(state().spec.edges.find((edge) => edge.id === "a-b")).toMatchObject({ kind: "auto_seq" });
    expect(state().spec.tools.find((tool) => tool.name === "beta")?.autoSeq).toBe(true);
    run("delete");
    expect(state().spec.tools.map((tool) => tool.name)).not.toContain("gamma");
    expect(state().past.map((entry) => entry.label)).toEqual([
      "Add a mock tool",
      "Group selected tools",
      "Duplicate",
      "Prefer",
      "Switch edge kind (auto-seq ⇄ order)",
      "Delete",
    ]);
    for (let step = 0; step < 6; step += 1) run("undo");
    expect(state().spec).toEqual(
      makeSpec({ edges: [{ id: "a-b", kind: "order", source: "alpha", target: "beta" }] }),
    );
    expect(run("undo")).toBe(false);
    for (let step = 0; step < 6; step += 1) run("redo");
    expect(state().spec.tools.map((tool) => tool.name)).toEqual([
      "alpha",
      "beta",
      "mock_tool",
      "alpha_2",
      "beta_2",
    ]);
  });

  it("copy and paste through the clipboard, leaving the clipboard out of history", () => {
    const editor = createLoadedEditor();
    editor.document.getState().setSelection({ nodes: ["alpha"], edges: [] });
    expect(editor.commands.isEnabled("paste", editor)).toBe(false);
    editor.commands.execute("copy", editor);
    expect(editor.document.getState().past).toHaveLength(0);
    editor.commands.execute("paste", editor);
    editor.commands.execute("paste", editor);
    expect(editor.document.getState().spec.tools.map((tool) => tool.name)).toEqual([
      "alpha",
      "beta",
      "gamma",
      "alpha_2",
      "alpha_3",
    ]);
    expect(editor.document.getState().selection.nodes).toEqual(["alpha_3"]);
  });
});
