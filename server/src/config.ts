import path from "node:path";
import { z } from "zod";
import { ConfigError } from "./shared/config-error.js";
import { readRunSettings, type RunSettings } from "./run-settings.js";
import { parseRateLimit } from "./access/rate-limits.js";

/** Everything the server reads from its environment, validated once at start. */
export interface ServerConfig extends RunSettings {
  port: number;
  host: string;
  dataDir: string;
  token?: string;
  corsOrigin?: string;
  maxConcurrentRuns: number;
  /** Where the built designer lives (`designer/dist`). */
  designerDir?: string;
  /** `WADDLE_DATABASE_URL`: PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** `WADDLE_REDIS_URL`: queue mode (needs `databaseUrl`). */
  redisUrl?: string;
  /** `WADDLE_ROLE`: what this instance does in queue mode. */
  role: ServerRole;
  /** `WADDLE_RUN_LEASE_MS`: how long a worker's claim on a run lasts unless renewed. */
  runLeaseMs: number;
  /** `WADDLE_RATE_LIMIT`, when set: requests per key and per agent on the routes that start work. */
  rateLimit?: string;
  /** `WADDLE_PUBLIC_URL`: where people reach this server (notifications link to the designer there). */
  publicUrl?: string;
}

/** `all` serves the API and runs runs; `api` only serves; `worker` only runs (queue mode). */
export type ServerRole = "all" | "api" | "worker";

export { ConfigError } from "./shared/config-error.js";

export const LOOPBACK_HOST = "127.0.0.1";

const Port = z.coerce.number().int().min(0).max(65_535);
const Positive = z.coerce.number().int().min(1).max(1_000);
const LeaseMs = z.coerce.number().int().min(300).max(600_000);
const Role = z.enum(["all", "api", "worker"]);

function readNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  schema: z.ZodType<number>,
  fallback: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: ${parsed.error.issues[0]?.message}.`);
  return parsed.data;
}

/**
 * Reads `PORT`, `HOST`, `WADDLE_DATA_DIR`, `WADDLE_TOKEN`, `WADDLE_CORS_ORIGIN`, `WADDLE_PUBLIC_URL`,
 * `WADDLE_MAX_CONCURRENT_RUNS` and the run settings (`readRunSettings`: tools, http allow-list, secrets,
 * LLM endpoints and keys, prices). Without a token the server only binds to 127.0.0.1, and another `HOST`
 * is refused.
 */
export function readServerConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerConfig {
  const token = env.WADDLE_TOKEN?.trim() || undefined;
  const host = env.HOST?.trim() || LOOPBACK_HOST;
  assertHostAllowed(host, token);
  const corsOrigin = env.WADDLE_CORS_ORIGIN?.trim() || undefined;
  const publicUrl = readPublicUrl(env);
  if (corsOrigin !== undefined && !/^https?:\/\/[^/\s]+$/.test(corsOrigin)) {
    throw new ConfigError(
      `WADDLE_CORS_ORIGIN must be one origin such as https://app.example.com (scheme and host, no path), not ${JSON.stringify(corsOrigin)}.`,
    );
  }
  if (token !== undefined && token.length < 16) {
    throw new ConfigError(
      "WADDLE_TOKEN is too short: use at least 16 random characters (e.g. `openssl rand -hex 24`).",
    );
  }
  return {
    ...readRunSettings(env, cwd),
    port: readNumber(env, "PORT", Port, 8787),
    host: host === "localhost" ? LOOPBACK_HOST : host,
    dataDir: path.resolve(cwd, env.WADDLE_DATA_DIR?.trim() || "data"),
    ...(token ? { token } : {}),
    ...(corsOrigin ? { corsOrigin } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    maxConcurrentRuns: readNumber(env, "WADDLE_MAX_CONCURRENT_RUNS", Positive, 4),
    ...readRateLimit(env),
    ...readScaleOut(env),
  };
}

/**
 * `WADDLE_DATABASE_URL`, `WADDLE_REDIS_URL`, `WADDLE_ROLE` and `WADDLE_RUN_LEASE_MS`: queue mode needs
 * both URLs, and an `api` or `worker` instance needs queue mode (another instance must do the other half).
 */
function readScaleOut(
  env: NodeJS.ProcessEnv,
): Pick<ServerConfig, "databaseUrl" | "redisUrl" | "role" | "runLeaseMs"> {
  const databaseUrl = env.WADDLE_DATABASE_URL?.trim() || undefined;
  const redisUrl = env.WADDLE_REDIS_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("WADDLE_DATABASE_URL must be a postgres://user:password@host:port/database URL.");
  }
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError("WADDLE_REDIS_URL must be a redis://host:port (or rediss://) URL.");
  }
  if (redisUrl !== undefined && databaseUrl === undefined) {
    throw new ConfigError(
      "WADDLE_REDIS_URL (queue mode) needs WADDLE_DATABASE_URL too: PostgreSQL holds runs and events for every instance.",
    );
  }
  const rawRole = env.WADDLE_ROLE?.trim() || "all";
  const role = Role.safeParse(rawRole);
  if (!role.success)
    throw new ConfigError(`WADDLE_ROLE must be all, api or worker, not ${JSON.stringify(rawRole)}.`);
  if (role.data !== "all" && redisUrl === undefined) {
    throw new ConfigError(
      `WADDLE_ROLE=${role.data} needs queue mode (WADDLE_DATABASE_URL and WADDLE_REDIS_URL): alone it would never run or never serve runs.`,
    );
  }
  return {
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(redisUrl ? { redisUrl } : {}),
    role: role.data,
    runLeaseMs: readNumber(env, "WADDLE_RUN_LEASE_MS", LeaseMs, 10_000),
  };
}

/** `WADDLE_RATE_LIMIT` (`N/s`, `N/min`, `N/h`), checked at start; left out when unset (`60/min` for keys). */
function readRateLimit(env: NodeJS.ProcessEnv): Pick<ServerConfig, "rateLimit"> {
  const raw = env.WADDLE_RATE_LIMIT?.trim();
  return raw ? { rateLimit: parseRateLimit(raw).text } : {};
}

/**
 * `WADDLE_PUBLIC_URL`: an http(s) URL without query or fragment (a path is kept, for a server behind a
 * proxy under one), its trailing slashes dropped; undefined when unset.
 */
function readPublicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.WADDLE_PUBLIC_URL?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(
      `WADDLE_PUBLIC_URL must be the http(s) address people open Waddle at, such as https://waddle.example.com (a path is allowed; no query, fragment or user), not ${JSON.stringify(raw)}.`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** Refuses a non-loopback `HOST` unless a token guards the API. */
export function assertHostAllowed(host: string, token: string | undefined): void {
  if (token) return;
  if (host === LOOPBACK_HOST || host === "localhost") return;
  throw new ConfigError(
    `HOST=${host} would expose Waddle without a token. Set WADDLE_TOKEN (16+ random characters) to listen on ${host}, or leave HOST unset to listen on ${LOOPBACK_HOST} only.`,
  );
}
