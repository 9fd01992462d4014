import { useDeferredValue } from "react";
import { getValidation } from "../graph/get-validation.js";
import { useDocument } from "./editor-context.js";

/**
 * Live validation of the document with `validateAgentSpec`. It runs on a deferred copy of the spec, so
 * typing stays responsive on big agents; results are cached per spec object.
 */
export function useValidation(): ReturnType<typeof getValidation> {
  const spec = useDocument((state) => state.spec);
  return getValidation(useDeferredValue(spec));
}
