import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as OTLP/JSON carries it, with its attributes read into plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  serviceName: unknown;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

/**
 * An OTLP/HTTP receiver for tests (`http/json`): decodes what the real exporter posts to `/v1/traces`, and
 * wakes whoever waits for a span to arrive.
 */
export class OtlpTestReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every body posted, as it came (to scan what left the server byte for byte). */
  readonly bodies: string[] = [];
  private readonly server: Server;
  private waiters: (() => void)[] = [];
  posts = 0;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        this.posts += 1;
        const body = Buffer.concat(chunks).toString("utf8");
        this.bodies.push(body);
        if (request.url === "/v1/traces") this.read(JSON.parse(body));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves once `match` finds a span among those received (now or later). */
  async waitFor(match: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
    for (;;) {
      const found = this.spans.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Every received span of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  private read(body: {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          attributes?: KeyValue[];
          events?: { name: string; attributes?: KeyValue[] }[];
          status?: { code?: number; message?: string };
        }[];
      }[];
    }[];
  }): void {
    for (const resource of body.resourceSpans ?? []) {
      const serviceName = toRecord(resource.resource?.attributes)["service.name"];
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            attributes: toRecord(span.attributes),
            events: (span.events ?? []).map((event) => ({
              name: event.name,
              attributes: toRecord(event.attributes),
            })),
            status: span.status ?? {},
            serviceName,
          });
        }
      }
    }
  }
}

function toRecord(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, toValue(value)]));
}

function toValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(toValue);
  return undefined;
}
