import { getPathValue, getTemplatePaths, renderTemplate } from "@waddle/protocol";

/** The longest query a delivery may fill (`POST /api/runs` takes as much). */
export const MAX_FILLED_QUERY_CHARS = 100_000;

/** A webhook's query filled from its request, or the body fields it reads that the request left out. */
export type FilledQuery = { ok: true; query: string } | { ok: false; missing: string[] };

/**
 * Fills a webhook trigger's query template from the request's JSON (`{{body.subject}}`, by the tools'
 * template rules: paths with dots and `[n]`, never a prototype). Every field the template reads is
 * required: a missing or null one is named (as a path in the body: `subject`, `ticket.id`), and nothing
 * is filled. A value that is not text is written as JSON.
 */
export function fillHookQuery(template: string, body: unknown): FilledQuery {
  const scope = { body };
  const missing = getTemplatePaths(template)
    .filter((path) => getPathValue(scope, path) === undefined || getPathValue(scope, path) === null)
    .map((path) => path.replace(/^body\.?/, "") || "(the whole body)");
  if (missing.length > 0) return { ok: false, missing };
  const filled = renderTemplate(template, scope);
  return { ok: true, query: typeof filled === "string" ? filled : JSON.stringify(filled) };
}
