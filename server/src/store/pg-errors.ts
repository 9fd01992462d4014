/** SQLSTATE classes and codes of a connection that broke or a server that is going away or not up yet. */
const CONNECTION_CODES = new Set(["57P01", "57P02", "57P03", "53300", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|the database system is (starting up|shutting down)/i;

/**
 * True for an error that says nothing about the query, only that PostgreSQL could not be reached or went
 * away (a restart): the operation may be retried once it is back.
 */
export function isPgConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (code.startsWith("08") || CONNECTION_CODES.has(code))) return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/** PostgreSQL's unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}
