import { describe, expect, it } from "vitest";
import { createUniqueName } from "./create-unique-name.js";

describe("createUniqueName", () => {
  it("keeps a free base and numbers a taken one from 2", () => {
    expect(createUniqueName({ base: "search", taken: ["fetch"] })).toBe("search");
    expect(createUniqueName({ base: "search", taken: ["search", "search_2"] })).toBe("search_3");
    expect(createUniqueName({ base: "e1", taken: ["e1"], separator: "-" })).toBe("e1-2");
  });

  it("counts on from a taken base's own number instead of appending another", () => {
    expect(createUniqueName({ base: "summarize_3", taken: ["summarize_3"] })).toBe("summarize_4");
    expect(createUniqueName({ base: "summarize_3", taken: ["summarize_3", "summarize_4"] })).toBe(
      "summarize_5",
    );
    expect(createUniqueName({ base: "a-b-2", taken: ["a-b-2"], separator: "-" })).toBe("a-b-3");
  });

  it("treats what is not a plain counter as part of the name", () => {
    // a leading zero, a bare number and a year-like tail too long for a counter stay in the stem
    expect(createUniqueName({ base: "v_01", taken: ["v_01"] })).toBe("v_01_2");
    expect(createUniqueName({ base: "_7", taken: ["_7"] })).toBe("_7_2");
    expect(createUniqueName({ base: "report_2026111", taken: ["report_2026111"] })).toBe("report_2026111_2");
  });
});
