import type { IdGenerator } from "@opentelemetry/sdk-trace-base";

/**
 * Random ids, except for the one span started inside `withIds`: a run's first span gets the ids its run
 * record keeps, so that a continuation on another worker (or after a restart) can name it as its parent.
 */
export class ForcedIdGenerator implements IdGenerator {
  private forced: { traceId?: string; spanId?: string } | undefined;

  /** `random`: the SDK's own generator (fast, not cryptographic: ids need to be unique, not secret). */
  constructor(private readonly random: IdGenerator) {}

  /** Calls `start` (which starts exactly one span, synchronously) with these ids. */
  withIds<T>(ids: { traceId?: string; spanId?: string }, start: () => T): T {
    this.forced = ids;
    try {
      return start();
    } finally {
      this.forced = undefined;
    }
  }

  generateTraceId(): string {
    const id = this.forced?.traceId;
    if (this.forced) delete this.forced.traceId;
    return id ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    const id = this.forced?.spanId;
    if (this.forced) delete this.forced.spanId;
    return id ?? this.random.generateSpanId();
  }
}
