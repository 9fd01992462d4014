import { describe, expect, it } from "vitest";
import { createSseParser, readSseStream, type SseMessage } from "./read-sse.js";

const STREAM =
  'event: turn_started\ndata: {"type":"turn_started","runId":"run_1","turn":1}\n\n' +
  ": keep-alive\n\n" +
  'event: delta\r\ndata: {"type":"delta","text":"Hel"}\r\n\r\n' +
  'event: delta\rdata: {"type":"delta","text":"lo"}\r\r' +
  "data: line one\ndata: line two\n\n" +
  'event: done\ndata:{"type":"done","status":"finished"}\n\n';

const EXPECTED: SseMessage[] = [
  { event: "turn_started", data: '{"type":"turn_started","runId":"run_1","turn":1}' },
  { event: "delta", data: '{"type":"delta","text":"Hel"}' },
  { event: "delta", data: '{"type":"delta","text":"lo"}' },
  { event: "message", data: "line one\nline two" },
  { event: "done", data: '{"type":"done","status":"finished"}' },
];

describe("createSseParser", () => {
  it("reads events, data lines, comments and every line ending as one piece", () => {
    const parser = createSseParser();
    expect(parser.push(STREAM)).toEqual(EXPECTED);
  });

  it("reads the same stream cut at every position into two pieces (\\r\\n split included)", () => {
    for (let cut = 0; cut <= STREAM.length; cut += 1) {
      const parser = createSseParser();
      const messages = [...parser.push(STREAM.slice(0, cut)), ...parser.push(STREAM.slice(cut))];
      expect(messages, `cut at ${cut}`).toEqual(EXPECTED);
    }
  });

  it("reads a stream fed one character at a time", () => {
    const parser = createSseParser();
    const messages = [...STREAM].flatMap((char) => parser.push(char));
    expect(messages).toEqual(EXPECTED);
  });

  it("drops a last message that never got its blank line (a cut connection)", () => {
    const parser = createSseParser();
    expect(parser.push('event: delta\ndata: {"type":"delta","text":"x"}\n')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe("readSseStream", () => {
  it("hands over each message as its bytes arrive, multi-byte characters split across chunks included", async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"héllo ✓"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // cut inside "é" and inside "✓"
        for (const [start, end] of [
          [0, 24],
          [24, 40],
          [40, bytes.length],
        ] as const)
          controller.enqueue(bytes.slice(start, end));
        controller.close();
      },
    });
    const seen: SseMessage[] = [];
    await readSseStream(body, (message) => seen.push(message));
    expect(seen).toEqual([{ event: "delta", data: '{"text":"héllo ✓"}' }]);
  });
});
