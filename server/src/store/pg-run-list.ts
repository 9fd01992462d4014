import type { ListRunsOptions } from "./waddle-store.js";

/** The query of `PgStore.listRuns`: its filters as a WHERE clause, newest first, and its parameters. */
export function getPgRunListQuery(options: ListRunsOptions): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.agentId !== undefined) {
    params.push(options.agentId);
    where.push(`agent_id = $${params.length}`);
  }
  if (options.statuses !== undefined) {
    params.push([...options.statuses]);
    where.push(`status = ANY($${params.length})`);
  }
  if (options.purpose !== undefined) {
    params.push(options.purpose);
    where.push(`COALESCE(origin::jsonb->>'purpose', 'run') = $${params.length}`);
  }
  if (options.channel !== undefined) {
    params.push(options.channel);
    where.push(`origin::jsonb->>'channel' = $${params.length}`);
  }
  if (options.rating !== undefined) {
    params.push(options.rating);
    where.push(`id IN (SELECT run_id FROM run_ratings WHERE rating = $${params.length})`);
  }
  if (options.trigger !== undefined) {
    params.push(options.trigger);
    where.push(`origin::jsonb->'trigger'->>'id' = $${params.length}`);
  }
  if (options.triggerKind !== undefined) {
    params.push(options.triggerKind);
    where.push(`origin::jsonb->'trigger'->>'kind' = $${params.length}`);
  }
  params.push(options.limit ?? null);
  const sql = `SELECT * FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY position DESC LIMIT $${params.length}`;
  return { sql, params };
}
