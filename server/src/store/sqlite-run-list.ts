import type { ListRunsOptions } from "./waddle-store.js";

/** The query of `SqliteStore.listRuns`: its filters as a WHERE clause, newest first, and its parameters. */
export function getSqliteRunListQuery(options: ListRunsOptions): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.agentId !== undefined) {
    where.push("agent_id = ?");
    params.push(options.agentId);
  }
  if (options.statuses !== undefined) {
    where.push(`status IN (${options.statuses.map(() => "?").join(", ") || "NULL"})`);
    params.push(...options.statuses);
  }
  if (options.purpose !== undefined) {
    where.push(`COALESCE(json_extract(origin, '$.purpose'), 'run') = ?`);
    params.push(options.purpose);
  }
  if (options.channel !== undefined) {
    where.push(`json_extract(origin, '$.channel') = ?`);
    params.push(options.channel);
  }
  if (options.rating !== undefined) {
    where.push("id IN (SELECT run_id FROM run_ratings WHERE rating = ?)");
    params.push(options.rating);
  }
  if (options.trigger !== undefined) {
    where.push(`json_extract(origin, '$.trigger.id') = ?`);
    params.push(options.trigger);
  }
  if (options.triggerKind !== undefined) {
    where.push(`json_extract(origin, '$.trigger.kind') = ?`);
    params.push(options.triggerKind);
  }
  const sql = `SELECT * FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY position DESC${
    options.limit === undefined ? "" : " LIMIT ?"
  }`;
  if (options.limit !== undefined) params.push(options.limit);
  return { sql, params };
}
