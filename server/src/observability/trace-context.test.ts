import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent, traceContextFromHeaders } from "./trace-context.js";

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("W3C trace context", () => {
  it("parses and formats a traceparent", () => {
    const parsed = parseTraceparent(VALID);
    expect(parsed).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      flags: 1,
    });
    expect(formatTraceparent(parsed!)).toBe(VALID);
  });

  it.each([
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    `${VALID}-extra`,
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
    "not a traceparent",
  ])("refuses %s", (value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it("accepts a later version with more fields, as W3C says", () => {
    expect(
      parseTraceparent(`01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-whatever`),
    ).toBeDefined();
  });

  it("reads the headers of a request", () => {
    expect(traceContextFromHeaders({ traceparent: VALID, tracestate: "vendor=1" })).toEqual({
      traceparent: VALID,
      tracestate: "vendor=1",
    });
    expect(traceContextFromHeaders({ traceparent: "garbage" })).toBeUndefined();
    expect(traceContextFromHeaders({})).toBeUndefined();
  });
});
