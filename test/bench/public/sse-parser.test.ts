import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.js";

describe("SseParser", () => {
  it("completes a message only at its blank line, however the text is cut", () => {
    const parser = new SseParser();
    expect(parser.push('event: delta\ndata: {"type":"delta",')).toEqual([]);
    expect(parser.push('"text":"Hi"}\n')).toEqual([]);
    expect(parser.push('\nevent: done\ndata: {"type":"done"}\n\n')).toEqual([
      { event: "delta", data: '{"type":"delta","text":"Hi"}' },
      { event: "done", data: '{"type":"done"}' },
    ]);
  });

  it("drops keep-alive comments, joins data lines and reads CRLF streams", () => {
    const parser = new SseParser();
    expect(parser.push(": keep-alive\n\n")).toEqual([]);
    expect(parser.push("data: one\r\ndata: two\r\n\r\n")).toEqual([{ event: "message", data: "one\ntwo" }]);
  });
});
