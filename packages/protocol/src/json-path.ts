/** Formats a path such as `["tools", 2, "name"]` as the JSON path `$.tools[2].name`. */
export function formatJsonPath(segments: readonly PropertyKey[]): string {
  let out = "$";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** Parses `$.tools[2].name` (as written by `formatJsonPath`) back into segments. */
export function parseJsonPath(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}
