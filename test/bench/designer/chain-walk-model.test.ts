import { describe, expect, it } from "vitest";
import { ChainWalkModel } from "./chain-walk-model.js";

describe("ChainWalkModel", () => {
  it("waits for the gate, calls each tool once in order with a line of thinking, then answers", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const model = new ChainWalkModel({ tools: ["a", "b"], answer: "done", gate });
    const chunks: string[] = [];
    const ask = () =>
      model.complete({ messages: [], stream: true, onChunk: (chunk) => chunks.push(chunk.reasoning ?? "") });
    const first = ask();
    let settled = false;
    void first.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    open();
    const replies = [await first, await ask(), await ask()].map((reply) => JSON.parse(reply.content));
    expect(replies).toEqual([
      { next_node: "a", args: { text: "input 0" } },
      { next_node: "b", args: { text: "input 1" } },
      { next_node: "final_response", args: { answer: "done" } },
    ]);
    expect(chunks).toEqual(["Step 0: ", "Step 1: ", "Step 2: "]);
  });
});
