import type { SpecIssueFix } from "@waddle/protocol";
import type { Editor } from "../editor/editor-context.js";

/** Where the server's credentials and allow-lists are managed. */
export const CREDENTIALS_ROUTE = "#/settings/credentials";

/**
 * Does what an issue's fix action says: adds the missing argument (a string, to be refined in the schema
 * editor) or removes the broken edge, as undoable edits; a setting of the server (a host, a secret, a
 * credential) opens the Credentials page, since the agent itself needs no change.
 */
export function applyIssueFix(editor: Editor, fix: SpecIssueFix): void {
  const document = editor.document.getState();
  switch (fix.action) {
    case "add_argument": {
      const tool = document.spec.tools.find((candidate) => candidate.name === fix.tool);
      if (!tool) return;
      const properties = (tool.argsSchema.properties ?? {}) as Record<string, unknown>;
      const argsSchema = {
        ...tool.argsSchema,
        type: "object",
        properties: { ...properties, [fix.name]: { type: "string" } },
      };
      document.dispatch({ type: "updateTool", name: tool.name, patch: { argsSchema } });
      editor.ui.getState().notify("info", `Added the argument "${fix.name}" (a string) to ${tool.name}.`);
      return;
    }
    case "remove_edge":
      document.dispatch({ type: "removeElements", edges: [fix.edgeId] });
      return;
    case "allow_host":
    case "add_secret":
    case "add_credential":
      window.location.hash = CREDENTIALS_ROUTE;
      return;
  }
}
