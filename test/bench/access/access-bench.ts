import { performance } from "node:perf_hooks";
import {
  Authenticator,
  createAccessGuards,
  generateApiKey,
  hashSecret,
  MemoryStore,
  type AccessGuards,
} from "@waddle/server";
import type { BenchContext, BenchResult } from "../bench-report.js";
import { getSummary } from "../stats.js";

type Handler = AccessGuards["authenticate"];

/** Runs one middleware on a fake request and resolves when it calls next (with an error or not). */
function pass(handler: Handler, request: object, response: object): Promise<unknown> {
  return new Promise((resolve) => {
    void handler(request as never, response as never, resolve as never);
  });
}

interface Mode {
  label: string;
  guards: AccessGuards;
  authorization: string | undefined;
}

/**
 * The access checks of one request (authenticate + the permission table + the agent scope), in process,
 * without HTTP: a server without keys (the local user), with WADDLE_TOKEN, and with an API key (scrypt once,
 * then the in-memory digest), interleaved so that each mode sees the same machine load.
 */
export async function runAccessBench(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 2_000 : 30_000;
  const local = new MemoryStore();
  const withKeys = new MemoryStore();
  const key = generateApiKey();
  await withKeys.apiKeys.create({
    id: key.id,
    name: "bench",
    role: "editor",
    agents: ["alpha"],
    canDecide: false,
    rateLimit: null,
    expiresAt: null,
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    hash: await hashSecret(key.secret),
  });
  const modes: Mode[] = [
    {
      label: "no keys, no token (local)",
      guards: createAccessGuards({ store: local, authenticator: new Authenticator({ keys: local.apiKeys }) }),
      authorization: undefined,
    },
    {
      label: "WADDLE_TOKEN",
      guards: createAccessGuards({
        store: local,
        authenticator: new Authenticator({ keys: local.apiKeys, token: "bench-token-0123456789" }),
      }),
      authorization: "Bearer bench-token-0123456789",
    },
    {
      label: "API key (editor, scoped to one agent)",
      guards: createAccessGuards({
        store: withKeys,
        authenticator: new Authenticator({ keys: withKeys.apiKeys }),
      }),
      authorization: `Bearer ${key.key}`,
    },
  ];
  const samples = modes.map(() => [] as number[]);
  const once = async (mode: Mode): Promise<number> => {
    const request = {
      method: "GET",
      originalUrl: "/api/agents/alpha/versions",
      headers: mode.authorization ? { authorization: mode.authorization } : {},
      body: undefined,
    };
    const response = { locals: {}, setHeader: () => undefined };
    const start = performance.now();
    const authenticated = await pass(mode.guards.authenticate, request, response);
    const authorized = await pass(mode.guards.authorize, request, response);
    const elapsed = performance.now() - start;
    if (authenticated !== undefined || authorized !== undefined) throw new Error(`${mode.label}: refused`);
    return elapsed;
  };
  // Warm-up: the key's one scrypt check, and the JIT.
  for (let index = 0; index < 500; index++) for (const mode of modes) await once(mode);
  for (let index = 0; index < rounds; index++) {
    for (const [position, mode] of modes.entries()) samples[position]!.push(await once(mode));
  }
  const summaries = samples.map((values) => getSummary(values));
  const keyP99 = summaries[2]!.p99;
  context.log(`access: ${rounds} requests per mode`);
  return {
    tables: [
      {
        title: "Access checks per request (ms): authenticate + permission table + agent scope",
        columns: ["mode", "median", "p90", "p99", "max"],
        rows: modes.map((mode, position) => {
          const summary = summaries[position]!;
          return [
            mode.label,
            ...[summary.median, summary.p90, summary.p99, summary.max].map((v) => v.toFixed(4)),
          ];
        }),
      },
    ],
    lines: [`access-key-p99-ms: ${keyP99.toFixed(4)}`],
    targets: [
      {
        target: "API key checks under 0.2 ms at p99",
        measured: `${keyP99.toFixed(4)} ms`,
        met: keyP99 < 0.2,
      },
    ],
    notes: [
      `${rounds} requests per mode, interleaved; in process (no HTTP, no socket), GET /api/agents/:id/versions.`,
      "A key is checked with scrypt (N=2^14) on its first use only; later requests compare a SHA-256 digest in constant time and re-read the key's record at most once a second (so a revocation on another instance applies within a second).",
    ],
  };
}
