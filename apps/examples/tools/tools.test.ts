import type { ToolRunContext } from "@waddle/planner";
import { describe, expect, it } from "vitest";
import { calculator, evaluateExpression } from "./calculator.js";
import { clockNow, describeInstant } from "./clock.js";
import { addToDate, dateAdd, dateDiff, diffDates } from "./date-math.js";
import { extractJsonPath, jsonExtract, parseExtractPath } from "./json-extract.js";
import { getTextStats, textStats } from "./text-stats.js";

const context = {} as ToolRunContext;

describe("calculator", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["2 ^ 3 ^ 2", 512],
    ["-2 ^ 2", -4],
    ["10 % 4", 2],
    ["sqrt(16) + abs(-3)", 7],
    ["max(1, 7, 3) - min(4, 2)", 5],
    ["round(pi * 100) / 100", 3.14],
    ["1.5e3 / .5", 3000],
    ["2 ** 10", 1024],
  ])("%s = %d", (expression, value) => {
    expect(evaluateExpression(expression)).toBeCloseTo(value, 10);
  });

  it.each(["1 +", "(1 + 2", "foo(1)", "1 / 0", "2 3", "process.exit()"])("refuses %s", (expression) => {
    expect(() => evaluateExpression(expression)).toThrow(/Expected|Unknown|Unexpected|finite/);
  });

  it("runs as a tool with validated args", async () => {
    const args = calculator.args.parse({ expression: "1200 * 0.15" });
    expect(await calculator.run(args, context)).toEqual({ expression: "1200 * 0.15", value: 180 });
    expect(calculator.args.safeParse({}).success).toBe(false);
  });
});

describe("text_stats", () => {
  it("counts words, sentences, paragraphs and frequent words", () => {
    const stats = getTextStats("Waddle plans. Waddle runs tools!\n\nThen waddle answers? Yes.", 2);
    expect(stats).toMatchObject({ words: 9, sentences: 4, paragraphs: 2, lines: 3, uniqueWords: 7 });
    expect(stats.topWords[0]).toEqual({ word: "waddle", count: 3 });
    expect(stats.readingTimeSeconds).toBe(3);
  });

  it("handles empty text and runs as a tool", async () => {
    expect(getTextStats("")).toMatchObject({ words: 0, sentences: 0, lines: 0, averageWordLength: 0 });
    const out = await textStats.run(textStats.args.parse({ text: "café naïve déjà" }), context);
    expect(textStats.out.parse(out)).toMatchObject({ words: 3, characters: 15 });
  });
});

describe("clock and date math", () => {
  it("describes an instant in a time zone", () => {
    const instant = describeInstant(new Date("2026-03-01T12:00:00Z"), "Asia/Tokyo");
    expect(instant).toMatchObject({ local: "2026-03-01 21:00:00", offset: "GMT+9", weekday: "Sunday" });
    expect(clockNow.args.safeParse({ timeZone: "Mars/Olympus" }).success).toBe(false);
  });

  it("gives the current time", async () => {
    const before = Date.now();
    const out = await clockNow.run(clockNow.args.parse({}), context);
    expect(out.unixMs).toBeGreaterThanOrEqual(before);
    expect(out.timeZone).toBe("UTC");
  });

  it("adds months with clamping and fixed durations", () => {
    expect(addToDate(new Date("2026-01-31T00:00:00Z"), { months: 1 }).toISOString()).toBe(
      "2026-02-28T00:00:00.000Z",
    );
    expect(addToDate(new Date("2024-02-29T10:00:00Z"), { years: 1, hours: 2 }).toISOString()).toBe(
      "2025-02-28T12:00:00.000Z",
    );
    expect(addToDate(new Date("2026-03-10T00:00:00Z"), { weeks: -1, days: 2 }).toISOString()).toBe(
      "2026-03-05T00:00:00.000Z",
    );
  });

  it("diffs dates with business days in both directions", async () => {
    expect(diffDates(new Date("2026-03-06"), new Date("2026-03-09"))).toMatchObject({
      days: 3,
      businessDays: 1,
    });
    expect(diffDates(new Date("2026-03-09"), new Date("2026-03-06"))).toMatchObject({
      days: -3,
      businessDays: -1,
    });
    const out = await dateDiff.run(dateDiff.args.parse({ from: "2026-01-01", to: "2026-01-15" }), context);
    expect(out).toMatchObject({ weeks: 2, businessDays: 10 });
    const added = await dateAdd.run(dateAdd.args.parse({ date: "2026-01-01", days: 10 }), context);
    expect(added.iso).toBe("2026-01-11T00:00:00.000Z");
    expect(dateAdd.args.safeParse({ date: "next tuesday" }).success).toBe(false);
  });
});

describe("json_extract", () => {
  const doc = {
    items: [
      { id: 1, tags: ["a"] },
      { id: 2, tags: [] },
    ],
    "key with spaces": true,
  };

  it("parses paths", () => {
    expect(parseExtractPath("$.items[0].id")).toEqual(["items", 0, "id"]);
    expect(parseExtractPath("items[*].id")).toEqual(["items", "*", "id"]);
    expect(parseExtractPath('$["key with spaces"]')).toEqual(["key with spaces"]);
    expect(() => parseExtractPath("$.items[")).toThrow(/Cannot read/);
  });

  it("extracts values, wildcards and nothing from the prototype", async () => {
    expect(extractJsonPath(doc, "$.items[1].id")).toEqual([2]);
    expect(extractJsonPath(doc, "items[*].id")).toEqual([1, 2]);
    expect(extractJsonPath(doc, "$.__proto__.toString")).toEqual([]);
    expect(extractJsonPath(doc, "$.constructor")).toEqual([]);
    const out = await jsonExtract.run(
      jsonExtract.args.parse({ json: JSON.stringify(doc), path: "items[*].id" }),
      context,
    );
    expect(out).toEqual({ found: true, count: 2, value: [1, 2], values: [1, 2] });
    const missing = await jsonExtract.run(jsonExtract.args.parse({ json: doc, path: "$.nope" }), context);
    expect(missing).toEqual({ found: false, count: 0, value: null, values: [] });
  });
});
