/** How spans are sent: OTLP over HTTP, as protobuf (the OTel default) or JSON. */
export type OtlpProtocol = "http/protobuf" | "http/json";

export type SamplerName =
  | "always_on"
  | "always_off"
  | "traceidratio"
  | "parentbased_always_on"
  | "parentbased_always_off"
  | "parentbased_traceidratio";

export interface OtelSettings {
  /** Where spans are posted: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, or the endpoint + `/v1/traces`. */
  tracesUrl: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: { name: SamplerName; ratio: number };
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: queries, replies, tool args and results. */
  captureContent: boolean;
  /** One export's limit (`OTEL_EXPORTER_OTLP_TIMEOUT`, default 10 s). */
  exportTimeoutMs: number;
  /** Spans waiting for export at most (`OTEL_BSP_MAX_QUEUE_SIZE`, default 2048); more are dropped and counted. */
  maxQueueSize: number;
  /** `OTEL_BSP_SCHEDULE_DELAY` (default 1 s). */
  scheduleDelayMs: number;
}

export type OtelSettingsResult =
  | { kind: "off" }
  | { kind: "on"; settings: OtelSettings }
  /** Tracing asked for but impossible as configured: reported at start, tracing stays off. */
  | { kind: "invalid"; message: string };

const SAMPLERS: readonly SamplerName[] = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
];

/**
 * Reads the standard `OTEL_*` variables. Tracing is on only with `OTEL_EXPORTER_OTLP_ENDPOINT` (or the
 * traces one); `OTEL_SDK_DISABLED=true` turns it off. Bad values are `invalid`, with what to fix.
 */
export function readOtelSettings(env: NodeJS.ProcessEnv): OtelSettingsResult {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { kind: "off" };
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
    ? endpoint
    : `${endpoint.replace(/\/+$/, "")}/v1/traces`;
  let url: URL;
  try {
    url = new URL(tracesUrl);
  } catch {
    return invalid(
      `OTEL_EXPORTER_OTLP_ENDPOINT "${endpoint.slice(0, 200)}" is not a URL: use e.g. http://localhost:4318`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return invalid(
      `OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (OTLP over HTTP), not ${url.protocol}`,
    );
  const protocol =
    (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    return invalid(
      `OTEL_EXPORTER_OTLP_PROTOCOL "${protocol.slice(0, 40)}" is not supported: use http/protobuf or http/json`,
    );
  const headers = parseKeyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS);
  if (headers === undefined)
    return invalid("OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas");
  const resourceAttributes = parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES);
  if (resourceAttributes === undefined)
    return invalid("OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas");
  const samplerName = (env.OTEL_TRACES_SAMPLER?.trim() || "parentbased_always_on") as SamplerName;
  if (!SAMPLERS.includes(samplerName))
    return invalid(
      `OTEL_TRACES_SAMPLER "${samplerName.slice(0, 40)}" is not supported: use one of ${SAMPLERS.join(", ")}`,
    );
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim() ? Number(env.OTEL_TRACES_SAMPLER_ARG) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    return invalid("OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1");
  return {
    kind: "on",
    settings: {
      tracesUrl: url.toString(),
      protocol,
      headers,
      serviceName: env.OTEL_SERVICE_NAME?.trim() || resourceAttributes["service.name"] || "waddle",
      resourceAttributes,
      sampler: { name: samplerName, ratio },
      captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true",
      exportTimeoutMs: readPositive(
        env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT,
        10_000,
      ),
      maxQueueSize: readPositive(env.OTEL_BSP_MAX_QUEUE_SIZE, 2_048),
      scheduleDelayMs: readPositive(env.OTEL_BSP_SCHEDULE_DELAY, 1_000),
    },
  };
}

function invalid(message: string): OtelSettingsResult {
  return { kind: "invalid", message };
}

function readPositive(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return value?.trim() && Number.isFinite(number) && number > 0 ? number : fallback;
}

/** `a=1,b=x%20y` (W3C baggage-like, values percent-decoded); undefined when a pair has no `=` or key. */
function parseKeyValues(text: string | undefined): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  if (!text?.trim()) return result;
  for (const pair of text.split(",")) {
    if (!pair.trim()) continue;
    const at = pair.indexOf("=");
    const key = pair.slice(0, at).trim();
    if (at < 0 || !key) return undefined;
    try {
      result[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return result;
}
