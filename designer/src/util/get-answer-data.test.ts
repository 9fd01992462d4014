import { describe, expect, it } from "vitest";
import { formatAnswerData, getAnswerData } from "./get-answer-data.js";

describe("getAnswerData", () => {
  it("reads the answer object of a structured run's payload", () => {
    const payload = { answer: '{"city":"Paris","celsius":19}', data: { city: "Paris", celsius: 19 } };
    expect(getAnswerData(payload)).toEqual({ city: "Paris", celsius: 19 });
  });

  it("has nothing for a text answer, a missing payload or a data that is not an object", () => {
    expect(getAnswerData({ answer: "Sunny." })).toBeUndefined();
    expect(getAnswerData(undefined)).toBeUndefined();
    expect(getAnswerData(null)).toBeUndefined();
    expect(getAnswerData({ data: [1, 2] })).toBeUndefined();
    expect(getAnswerData({ data: "text" })).toBeUndefined();
    expect(getAnswerData({ data: null })).toBeUndefined();
  });
});

describe("formatAnswerData", () => {
  it("pretty-prints with two spaces", () => {
    expect(formatAnswerData({ city: "Paris", tags: ["a"] })).toBe(
      '{\n  "city": "Paris",\n  "tags": [\n    "a"\n  ]\n}',
    );
  });
});
