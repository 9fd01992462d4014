import { describe, expect, it } from "vitest";
import type { CallView } from "../../runs/fold/run-view.js";
import { getForkEditOptions, getInitialEditText, readForkEdit } from "./fork-edit-model.js";

const call: CallView = {
  callId: "c1",
  tool: "fetch_page",
  step: 2,
  startSeq: 9,
  startTs: 0,
  args: { id: 1 },
  attempt: 1,
  status: "succeeded",
  observation: { text: "page 1" },
};

describe("fork edits", () => {
  it("offers a tool step's result and args, the reply always, and the query only at step 0", () => {
    expect(getForkEditOptions({ step: 2, call }).map((option) => option.value)).toEqual([
      "none",
      "observation",
      "args",
      "llm_reply",
    ]);
    expect(getForkEditOptions({ step: 0, call: null }).map((option) => option.value)).toEqual([
      "none",
      "llm_reply",
      "query",
    ]);
    // A call of another step is not this step's.
    expect(getForkEditOptions({ step: 3, call }).map((option) => option.value)).toEqual([
      "none",
      "llm_reply",
    ]);
  });

  it("starts from the call's values and reads them back", () => {
    const observation = getInitialEditText({ choice: "observation", call, query: "q" });
    expect(readForkEdit("observation", observation)).toEqual({
      ok: true,
      edit: { kind: "observation", value: { text: "page 1" } },
    });
    expect(readForkEdit("args", getInitialEditText({ choice: "args", call, query: "q" }))).toEqual({
      ok: true,
      edit: { kind: "args", value: { id: 1 } },
    });
    expect(readForkEdit("args", "[1]")).toEqual({ ok: false, error: "The args must be a JSON object." });
    expect(readForkEdit("observation", "{oops").ok).toBe(false);
    // A reply is sent as written, even when it is not JSON: the planner repairs it as a real one.
    expect(readForkEdit("llm_reply", "not json")).toEqual({
      ok: true,
      edit: { kind: "llm_reply", value: "not json" },
    });
    expect(readForkEdit("query", "  ")).toEqual({ ok: false, error: "Write a query." });
    expect(readForkEdit("none", "")).toEqual({ ok: true, edit: undefined });
  });
});
