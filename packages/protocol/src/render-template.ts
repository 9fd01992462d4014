/**
 * Values a template may read: `{{args.topic}}`, `{{query}}`, `{{last.docs}}` (the previous observation),
 * `{{steps.search.docs[0]}}` (the latest observation of a tool), `{{call}}` (1-based call number).
 */
export interface TemplateScope {
  args?: unknown;
  query?: string;
  last?: unknown;
  steps?: Record<string, unknown>;
  call?: number;
  [key: string]: unknown;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\s*\}\}$/;
const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Reads `a.b[0].c` from a value; `undefined` when any segment is missing. Never walks prototypes. */
export function getPathValue(root: unknown, path: string): unknown {
  const segments = path.match(/[^.[\]]+/g) ?? [];
  let current: unknown = root;
  for (const segment of segments) {
    if (FORBIDDEN_KEYS.has(segment)) return undefined;
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * Renders a JSON template. A string that is exactly one `{{path}}` becomes the value itself (object,
 * number, …; `null` when missing); placeholders inside longer strings are interpolated as text.
 * Objects and arrays are rendered recursively; nothing is evaluated.
 */
export function renderTemplate(template: unknown, scope: TemplateScope): unknown {
  if (typeof template === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole?.[1] !== undefined) return getPathValue(scope, whole[1]) ?? null;
    return template.replace(PLACEHOLDER, (_match, path: string) => toText(getPathValue(scope, path)));
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, scope));
  if (template !== null && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      if (FORBIDDEN_KEYS.has(key)) continue;
      out[key] = renderTemplate(value, scope);
    }
    return out;
  }
  return template;
}

/** Every `{{path}}` a template reads, for the designer's hints and validation. */
export function getTemplatePaths(template: unknown): string[] {
  const paths = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      for (const match of value.matchAll(PLACEHOLDER)) if (match[1]) paths.add(match[1]);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(template);
  return [...paths];
}
