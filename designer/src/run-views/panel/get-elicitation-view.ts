/** What an MCP server asks a person during a tool call (a pause with `kind: "mcp_elicitation"`). */
export interface ElicitationView {
  server: string;
  question: string;
  /** The form's fields: name, what it is for, and whether it must be given. */
  fields: { name: string; description: string; required: boolean }[];
  howToAnswer: string;
  /** Why the last answer did not fit, when it did not. */
  problem: string | null;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The elicitation a pause carries, or null for any other pause. */
export function getElicitationView(
  payload: Readonly<Record<string, unknown>> | undefined,
): ElicitationView | null {
  if (payload?.kind !== "mcp_elicitation") return null;
  const schema = (payload.requestedSchema ?? {}) as { properties?: unknown; required?: unknown };
  const properties =
    schema.properties !== null && typeof schema.properties === "object"
      ? (schema.properties as Record<string, { description?: unknown; title?: unknown; type?: unknown }>)
      : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return {
    server: text(payload.server),
    question: text(payload.message),
    fields: Object.entries(properties).map(([name, field]) => ({
      name,
      description: text(field.description) || text(field.title) || text(field.type),
      required: required.includes(name),
    })),
    howToAnswer: text(payload.howToAnswer),
    problem: text(payload.problem) || null,
  };
}
