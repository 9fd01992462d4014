import path from "node:path";
import { z } from "zod";
import { ConfigError } from "./config-error.js";
import { readRunSettings, type RunSettings } from "./run-settings.js";

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
}

export { ConfigError } from "./config-error.js";

export const LOOPBACK_HOST = "127.0.0.1";

const Port = z.coerce.number().int().min(0).max(65_535);
const Positive = z.coerce.number().int().min(1).max(1_000);

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
 * Reads `PORT`, `HOST`, `WADDLE_DATA_DIR`, `WADDLE_TOKEN`, `WADDLE_CORS_ORIGIN`,
 * `WADDLE_MAX_CONCURRENT_RUNS` and the run settings (`readRunSettings`: tools, http allow-list, secrets,
 * LLM endpoints and keys, prices). Without a token the server only binds to 127.0.0.1, and another `HOST`
 * is refused.
 */
export function readServerConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerConfig {
  const token = env.WADDLE_TOKEN?.trim() || undefined;
  const host = env.HOST?.trim() || LOOPBACK_HOST;
  assertHostAllowed(host, token);
  const corsOrigin = env.WADDLE_CORS_ORIGIN?.trim() || undefined;
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
    maxConcurrentRuns: readNumber(env, "WADDLE_MAX_CONCURRENT_RUNS", Positive, 4),
  };
}

/** Refuses a non-loopback `HOST` unless a token guards the API. */
export function assertHostAllowed(host: string, token: string | undefined): void {
  if (token) return;
  if (host === LOOPBACK_HOST || host === "localhost") return;
  throw new ConfigError(
    `HOST=${host} would expose Waddle without a token. Set WADDLE_TOKEN (16+ random characters) to listen on ${host}, or leave HOST unset to listen on ${LOOPBACK_HOST} only.`,
  );
}
