import { createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunRecord, TriggerFire } from "@waddle/protocol";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary, type Summary } from "../stats.js";
import type { ServerProcess } from "../scale/server-process.js";
import { startQueueMode, startSqlite, type BenchDeployment } from "../scale-out/scale-out-cluster.js";

const DRIFT_TARGET_MS = 1_000;
/** Every delivery and fire starts a run: the default 60/min per agent would measure the limiter. */
const ENV = { WADDLE_RATE_LIMIT: "1000000/s", WADDLE_MAX_CONCURRENT_RUNS: "8" };
/** One instant mock step, then the answer (the offline model). */
const AGENT = {
  version: 1,
  id: "triggered",
  name: "Triggered",
  tools: [
    { name: "lookup", desc: "Looks up", sideEffects: "read", impl: { kind: "mock", output: { ok: true } } },
  ],
};

/** JSON over HTTP on 127.0.0.1; throws on an error status. */
async function call<T>(server: ServerProcess, pathname: string, method = "GET", body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${pathname}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${pathname} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

interface DriftFigures {
  label: string;
  triggers: number;
  expected: number;
  fired: number;
  summary: Summary;
}

/**
 * `triggers` schedules every 10 s (the floor), spread over the ten seconds (`<s>-59/10 * * * * *`), for
 * `windowMs`: drift is when the fire's run was created minus the tick it fired for.
 */
async function measureDrift(
  deployment: BenchDeployment,
  triggers: number,
  windowMs: number,
): Promise<DriftFigures> {
  const api = deployment.instances[0]!;
  await call(api, "/api/agents", "POST", AGENT);
  const ids: string[] = [];
  for (let index = 0; index < triggers; index++) {
    const created = await call<{ trigger: { id: string } }>(api, `/api/agents/${AGENT.id}/triggers`, "POST", {
      kind: "schedule",
      cron: `${index % 10}-59/10 * * * * *`,
      timezone: "UTC",
      query: "Report",
      overlap: "allow",
      catchUp: "none",
    });
    ids.push(created.trigger.id);
  }
  // Every instance reads new triggers within a second: measure whole ticks after that.
  const from = Math.ceil((Date.now() + 2_000) / 1_000) * 1_000;
  const to = from + windowMs;
  await sleep(to - Date.now() + 3_000);
  for (const id of ids)
    await call(api, `/api/agents/${AGENT.id}/triggers/${id}`, "PATCH", { enabled: false });
  const { runs } = await call<{ runs: RunRecord[] }>(api, `/api/runs?agentId=${AGENT.id}&limit=1000`);
  const createdAt = new Map(runs.map((run) => [run.id, Date.parse(run.createdAt!)]));
  const drifts: number[] = [];
  let fired = 0;
  for (const id of ids) {
    const { fires } = await call<{ fires: TriggerFire[] }>(
      api,
      `/api/agents/${AGENT.id}/triggers/${id}/fires?limit=200`,
    );
    for (const fire of fires) {
      const tick = Date.parse(fire.firedAt);
      if (tick < from || tick >= to || fire.runId === null) continue;
      fired += 1;
      drifts.push(createdAt.get(fire.runId)! - tick);
    }
  }
  return {
    label: deployment.label,
    triggers,
    expected: (triggers * windowMs) / 10_000,
    fired,
    summary: getSummary(drifts),
  };
}

interface HookFigures {
  requests: number;
  concurrency: number;
  accepted: number;
  perSecond: number;
  summary: Summary;
}

/** Signed deliveries to one hmac webhook trigger, `concurrency` at a time: requests per second to 202. */
async function measureWebhooks(
  server: ServerProcess,
  requests: number,
  concurrency: number,
): Promise<HookFigures> {
  const created = await call<{ trigger: { id: string }; secret: string }>(
    server,
    `/api/agents/${AGENT.id}/triggers`,
    "POST",
    { kind: "webhook", query: "Triage {{body.subject}}", secretMode: "hmac" },
  );
  const url = `${server.url}/hooks/${created.trigger.id}`;
  const deliver = async (index: number) => {
    const body = JSON.stringify({
      id: `evt_${index}`,
      subject: `Ticket ${index}`,
      customer: { tier: "gold" },
    });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", created.secret).update(`${t}.${body}`).digest("hex");
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "waddle-signature": `t=${t},v1=${v1}` },
      body,
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  };
  for (let index = 0; index < 50; index++) await deliver(-index - 1);
  let next = 0;
  const latencies: number[] = [];
  let accepted = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const result = await deliver(next++);
        latencies.push(result.ms);
        if (result.status === 202) accepted += 1;
      }
    }),
  );
  const wallMs = performance.now() - startedAt;
  return {
    requests,
    concurrency,
    accepted,
    perSecond: (requests * 1_000) / wallMs,
    summary: getSummary(latencies),
  };
}

const ms = (value: number) => round(value, 1);

function getDriftTable(rows: DriftFigures[], windowMs: number): BenchTable {
  return {
    title: `Fire-time drift: run created minus tick, schedules every 10 s over ${windowMs / 1_000} s`,
    columns: ["deployment", "schedules", "ticks fired / expected", "p50 ms", "p99 ms", "max ms"],
    rows: rows.map((row) => [
      row.label,
      row.triggers,
      `${row.fired} / ${row.expected}`,
      ms(row.summary.median),
      ms(row.summary.p99),
      ms(row.summary.max),
    ]),
  };
}

/** `npm run bench -- triggers`: drift on one process and on three in queue mode, then webhook throughput. */
export async function runTriggersBench(context: BenchContext): Promise<BenchResult> {
  const windowMs = context.quick ? 20_000 : 60_000;
  const triggers = context.quick ? 10 : 30;
  const drift: DriftFigures[] = [];
  const deployments: [string, () => Promise<BenchDeployment>][] = [
    ["sqlite", () => startSqlite(ENV)],
    ["pg-3", () => startQueueMode(["all", "all", "all"], ENV)],
  ];
  for (const [name, start] of deployments) {
    context.log(`${name}: ${triggers} schedules for ${windowMs / 1_000} s`);
    const deployment = await start();
    try {
      drift.push(await measureDrift(deployment, triggers, windowMs));
    } finally {
      await deployment.stop();
    }
  }
  const requests = context.quick ? 300 : 3_000;
  const concurrency = 16;
  context.log(`webhooks: ${requests} signed deliveries, ${concurrency} at a time`);
  const single = await startSqlite(ENV);
  let hooks: HookFigures;
  try {
    await call(single.instances[0]!, "/api/agents", "POST", AGENT);
    hooks = await measureWebhooks(single.instances[0]!, requests, concurrency);
  } finally {
    await single.stop();
  }
  const targets: TargetCheck[] = drift.map((row) => ({
    target: `${row.label}: a schedule's fire-time drift under ${DRIFT_TARGET_MS} ms at p99`,
    measured: `${ms(row.summary.p99)} ms`,
    met: row.summary.p99 < DRIFT_TARGET_MS && row.fired === row.expected,
  }));
  return {
    tables: [
      getDriftTable(drift, windowMs),
      {
        title: "Webhook triggers: signed deliveries to 202 (one process, SQLite, the offline model)",
        columns: ["requests", "at a time", "202", "requests/s", "p50 ms", "p99 ms"],
        rows: [
          [
            hooks.requests,
            hooks.concurrency,
            hooks.accepted,
            ms(hooks.perSecond),
            ms(hooks.summary.median),
            ms(hooks.summary.p99),
          ],
        ],
      },
    ],
    lines: [
      `triggers-drift-p99-ms: ${drift.map((row) => `${row.label} ${ms(row.summary.p99)}`).join(" · ")}`,
      `triggers-webhook-per-second: ${ms(hooks.perSecond)} (p99 ${ms(hooks.summary.p99)} ms)`,
    ],
    targets,
    notes: [
      `Server processes on 127.0.0.1 (the built server, as npm start runs it; WADDLE_RATE_LIMIT raised so that the limiter is not what is measured). ${triggers} schedules every 10 s (the floor), spread over the ten seconds, started runs of a one-step agent on the offline model; drift is the fired run's createdAt minus its tick, over the ticks of a ${windowMs / 1_000} s window that began 2 s after the schedules were made (every instance reads triggers again each second). In queue mode the three instances race for each tick's claim in PostgreSQL; one fires it.`,
      `Webhooks: ${hooks.requests} deliveries after 50 untimed ones, each signed (HMAC-SHA256 over "<t>.<raw body>") by the client, ${hooks.concurrency} in flight; latency is to the 202 (the run queued, not ended). The runs they start execute meanwhile in the same process (8 at a time), so the figure includes that load.`,
    ],
  };
}
