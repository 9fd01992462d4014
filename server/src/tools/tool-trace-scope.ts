import { AsyncLocalStorage } from "node:async_hooks";

/** Where a tool call's `traceparent` comes from: the tracer, while the call's span is open. */
export interface ToolTraceSource {
  getToolTraceparent(runId: string, callId: string): string | undefined;
}

/** Late-bound (tracing starts after the run setup): empty while tracing is off. */
export interface ToolTracing {
  source?: ToolTraceSource | undefined;
}

const outgoing = new AsyncLocalStorage<string>();

/**
 * Runs a tool call with its span's `traceparent` in scope, so that the HTTP requests it makes (http tools,
 * MCP over HTTP) send it (`getOutgoingTraceparent`), whatever client library makes them.
 */
export function withToolTrace<T>(
  tracing: ToolTracing | undefined,
  call: { runId: string; callId: string },
  work: () => T,
): T {
  const traceparent = tracing?.source?.getToolTraceparent(call.runId, call.callId);
  return traceparent ? outgoing.run(traceparent, work) : work();
}

/** The `traceparent` of the tool call being run here, if it is traced. */
export function getOutgoingTraceparent(): string | undefined {
  return outgoing.getStore();
}
