import { describe, expect, it } from "vitest";
import { PacedStreamClient } from "./paced-stream-client.js";

describe("PacedStreamClient", () => {
  it("waits for its gate, then streams one delta per word and returns the whole final action", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const client = new PacedStreamClient({ rate: 100_000, count: 5, gate });
    const deltas: string[] = [];
    const reply = client.complete({
      messages: [],
      stream: true,
      onChunk: (chunk) => deltas.push(chunk.content ?? ""),
    });
    await Promise.resolve();
    expect(deltas).toEqual([]);
    open();
    const result = await reply;
    expect(deltas.slice(1, -1)).toEqual(["w0 ", "w1 ", "w2 ", "w3 ", "w4 "]);
    expect(deltas.join("")).toBe(result.content);
    expect(JSON.parse(result.content)).toEqual({
      next_node: "final_response",
      args: { answer: "w0 w1 w2 w3 w4 " },
    });
  });
});
