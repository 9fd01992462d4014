import { describe, expect, it } from "vitest";
import { getSeqAudit } from "./seq-audit.js";

describe("getSeqAudit", () => {
  it("finds nothing wrong with every seq once, in any order", () => {
    expect(getSeqAudit([3, 1, 2, 4])).toEqual({ duplicates: 0, missing: 0, maxSeq: 4 });
  });

  it("counts duplicates and gaps below the highest seq", () => {
    expect(getSeqAudit([1, 2, 2, 5, 5, 5])).toEqual({ duplicates: 3, missing: 2, maxSeq: 5 });
    expect(getSeqAudit([])).toEqual({ duplicates: 0, missing: 0, maxSeq: 0 });
  });
});
