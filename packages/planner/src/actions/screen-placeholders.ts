import type { CatalogTool } from "../catalog/catalog.js";
import type { Rejection } from "./action-check-types.js";
import { findPlaceholders } from "./placeholders.js";
import { repairMessage } from "./rejections.js";

/**
 * Args whose values are placeholders (docs/repair-and-arg-fill.md): top-level ones are taken out, so that a
 * required field becomes missing (arg-fill) and an optional one takes its default; nested ones cannot be
 * asked for alone and are refused for a repair. Undefined when there are none.
 */
export function screenPlaceholders(
  tool: CatalogTool,
  args: Record<string, unknown>,
  where?: string,
): { args: Record<string, unknown>; fields: string[]; rejection?: Rejection } | undefined {
  const scan = findPlaceholders(args, tool.argsSchema);
  if (scan === undefined) return undefined;
  if (scan.nested.length > 0) {
    const rejection: Rejection = {
      code: "placeholder_args",
      message: repairMessage(
        "placeholder_args",
        `${where === undefined ? "" : `${where}: `}args of ${tool.name} hold placeholders instead of values at ${scan.nested.join(", ")}: give real values, or leave optional ones out.`,
      ),
      purpose: "repair",
      repairKind: "args",
      node: tool.name,
      argFailure: true,
      placeholders: scan.nested,
    };
    return { args, fields: [], rejection };
  }
  const kept = { ...args };
  for (const field of scan.fields) delete kept[field];
  return { args: kept, fields: scan.fields };
}
