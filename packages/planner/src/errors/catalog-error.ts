import { PlannerError, type PlannerErrorOptions } from "./planner-error.js";

export const CATALOG_ERROR_CODES = [
  "duplicate_tool",
  "reserved_tool_name",
  "invalid_tool_name",
  "invalid_tool_schema",
  "invalid_tool_spec",
  "unresolved_impl",
] as const;
export type CatalogErrorCode = (typeof CATALOG_ERROR_CODES)[number];

/** Thrown by `buildCatalog` when a tool cannot be offered to the LLM; the message names the tool. */
export class CatalogError extends PlannerError<CatalogErrorCode> {
  constructor(code: CatalogErrorCode, message: string, options: PlannerErrorOptions = {}) {
    super(code, message, options);
    this.name = "CatalogError";
  }
}
