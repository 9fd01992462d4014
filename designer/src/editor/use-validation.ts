import { useDeferredValue } from "react";
import { getMergedValidation } from "../graph/get-validation.js";
import { useDocument, useServer } from "./editor-context.js";

/**
 * Live validation of the document with `validateAgentSpec`, plus what the server found about this
 * server's settings (debounced, `useServerCheck`). It runs on a deferred copy of the spec, so typing never
 * waits for it, even on big agents; results are cached per spec object.
 */
export function useValidation(): ReturnType<typeof getMergedValidation> {
  const spec = useDocument((state) => state.spec);
  const serverIssues = useServer((state) => state.serverIssues);
  return getMergedValidation(useDeferredValue(spec), serverIssues);
}
