import { describe, expect, it } from "vitest";
import { createJsonReplies, InstantReplies, runBareLoop } from "./bare-loop.js";
import { createTrajectory, FINAL_ANSWER } from "./overhead-tools.js";

describe("runBareLoop", () => {
  it("calls every scripted tool and appends each reply and observation to the messages", async () => {
    const trajectory = createTrajectory(7);
    const replies = new InstantReplies(createJsonReplies(trajectory));
    const seen: number[] = [];
    const result = await runBareLoop({
      query: "go",
      complete: (messages) => {
        seen.push(messages.length);
        return Promise.resolve(replies.next());
      },
    });
    expect(result).toMatchObject({ answer: FINAL_ANSWER, toolCalls: 7 });
    // system + user, then one reply and one observation per step, then the final reply.
    expect(result.messages).toHaveLength(2 + 2 * 7 + 1);
    expect(seen).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    expect(JSON.parse(result.messages[3]!.content)).toEqual({ ok: true, tool: "search_docs", fields: 2 });
  });

  it("validates args with zod and refuses unknown tools", async () => {
    const badArgs = JSON.stringify({ next_node: "search_docs", args: { query: "", limit: 5 } });
    await expect(runBareLoop({ query: "go", complete: () => Promise.resolve(badArgs) })).rejects.toThrow();
    const unknown = JSON.stringify({ next_node: "delete_everything", args: {} });
    await expect(runBareLoop({ query: "go", complete: () => Promise.resolve(unknown) })).rejects.toThrow(
      /no tool "delete_everything"/,
    );
  });
});

describe("createTrajectory", () => {
  it("cycles through the five tools with args their schemas accept", () => {
    const trajectory = createTrajectory(10);
    expect(trajectory.map((step) => step.tool).slice(0, 6)).toEqual([
      "search_docs",
      "fetch_record",
      "compute_total",
      "lookup_user",
      "log_note",
      "search_docs",
    ]);
  });
});

describe("InstantReplies", () => {
  it("serves the script in order, again after reset, and says when it runs out", () => {
    const replies = new InstantReplies(["a", "b"]);
    expect([replies.next(), replies.next()]).toEqual(["a", "b"]);
    expect(() => replies.next()).toThrow(/2 replies; call 3/);
    replies.reset();
    expect(replies.next()).toBe("a");
  });
});
