import { describe, expect, it } from "vitest";
import { readOtelSettings } from "./otel-settings.js";

describe("readOtelSettings", () => {
  it("is off without an endpoint, or with OTEL_SDK_DISABLED", () => {
    expect(readOtelSettings({})).toEqual({ kind: "off" });
    expect(
      readOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }),
    ).toEqual({ kind: "off" });
  });

  it("reads the standard variables", () => {
    const result = readOtelSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example.com:4318/",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-team=ops",
      OTEL_SERVICE_NAME: "waddle-prod",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "TRUE",
    });
    expect(result).toEqual({
      kind: "on",
      settings: {
        tracesUrl: "https://collector.example.com:4318/v1/traces",
        protocol: "http/protobuf",
        headers: { authorization: "Bearer abc", "x-team": "ops" },
        serviceName: "waddle-prod",
        resourceAttributes: { "deployment.environment": "prod" },
        sampler: { name: "parentbased_traceidratio", ratio: 0.25 },
        captureContent: true,
        exportTimeoutMs: 10_000,
        maxQueueSize: 2_048,
        scheduleDelayMs: 1_000,
      },
    });
  });

  it("takes a traces endpoint as it is", () => {
    const result = readOtelSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://localhost:4318/custom" });
    expect(result.kind === "on" && result.settings.tracesUrl).toBe("http://localhost:4318/custom");
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "localhost 4318" }, /not a URL/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" }, /http\(s\) URL/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      /http\/protobuf or http\/json/,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "novalue" }, /key=value/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_SAMPLER: "sometimes" },
      /OTEL_TRACES_SAMPLER/,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_SAMPLER_ARG: "2" }, /from 0 to 1/],
  ])("refuses %j, saying what to fix", (env, message) => {
    const result = readOtelSettings(env);
    expect(result.kind).toBe("invalid");
    expect(result.kind === "invalid" && result.message).toMatch(message);
  });
});
