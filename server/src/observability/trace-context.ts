import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";

/** A W3C trace context (`traceparent`, and `tracestate` when the caller sent one). */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

/** The parts of a `traceparent`: version 00, 32 and 16 lowercase hex ids (not all zero), 2 hex flags. */
export interface ParsedTraceparent {
  traceId: string;
  spanId: string;
  /** Bit 0: sampled. */
  flags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const MAX_TRACESTATE_CHARS = 512;

/** The parsed `traceparent`, or undefined when it is not a valid W3C one (all-zero ids, version ff). */
export function parseTraceparent(value: string): ParsedTraceparent | undefined {
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version 00 has nothing after the flags; a later version may (read as 00, per the spec).
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

export function formatTraceparent(parts: ParsedTraceparent): string {
  return `00-${parts.traceId}-${parts.spanId}-${parts.flags.toString(16).padStart(2, "0")}`;
}

/** A new random span id (8 bytes, never all zero). */
export function createSpanId(): string {
  for (;;) {
    const id = randomBytes(8).toString("hex");
    if (!/^0+$/.test(id)) return id;
  }
}

/** A new random trace id (16 bytes, never all zero). */
export function createTraceId(): string {
  for (;;) {
    const id = randomBytes(16).toString("hex");
    if (!/^0+$/.test(id)) return id;
  }
}

/**
 * The caller's trace context from request headers (`traceparent`, `tracestate`), or undefined when there
 * is none or it is malformed (ignored, as W3C says: the run starts a trace of its own). For every entry
 * point that starts runs: REST, `/v1`, `/mcp`, A2A.
 */
export function traceContextFromHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): TraceContext | undefined {
  const raw = headers.traceparent;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || parseTraceparent(value) === undefined) return undefined;
  const state = headers.tracestate;
  const tracestate = (Array.isArray(state) ? state.join(",") : state)?.trim();
  return {
    traceparent: value.trim().toLowerCase(),
    ...(tracestate && tracestate.length <= MAX_TRACESTATE_CHARS ? { tracestate } : {}),
  };
}

const incoming = new AsyncLocalStorage<TraceContext>();

/** The trace context of the request being handled (set by `createTraceContextMiddleware`). */
export function getIncomingTraceContext(): TraceContext | undefined {
  return incoming.getStore();
}

/** Runs `work` as if a request with this trace context were being handled (A2A, sessions, tests). */
export function withIncomingTraceContext<T>(context: TraceContext | undefined, work: () => T): T {
  return context ? incoming.run(context, work) : work();
}

/**
 * Keeps a request's `traceparent` for the runs it starts (`RunService.startRun` reads it), whatever the
 * route: mounted only while tracing is on.
 */
export function createTraceContextMiddleware(): RequestHandler {
  return (request, _response, next) => {
    const context = traceContextFromHeaders(request.headers);
    if (context) incoming.run(context, next);
    else next();
  };
}
