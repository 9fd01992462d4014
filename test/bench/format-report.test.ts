import { describe, expect, it } from "vitest";
import { formatReport, formatTable, round } from "./format-report.js";

describe("formatTable", () => {
  it("pads columns and right-aligns numeric ones", () => {
    const text = formatTable({
      title: "t",
      columns: ["name", "µs"],
      rows: [
        ["waddle", 9.5],
        ["bare", 1.25],
      ],
    });
    expect(text.split("\n")).toEqual([
      "| name   |   µs |",
      "| ------ | ---: |",
      "| waddle |  9.5 |",
      "| bare   | 1.25 |",
    ]);
  });
});

describe("formatReport", () => {
  it("puts the machine under the title and marks missed targets", () => {
    const text = formatReport(
      {
        name: "x",
        title: "X",
        machine: {
          cores: 2,
          cpuModel: "CPU",
          node: "v20",
          platform: "linux x64",
          totalMemGb: 8,
          loadAverage: 1,
        },
        tables: [],
        lines: ["floor-ratio: 4"],
        targets: [{ target: "floor-ratio ≤ 3", measured: "4", met: false }],
        notes: ["a note"],
      },
      ["Command: `npm run bench -- x`"],
    );
    expect(text.startsWith("### X\n\nCommand: `npm run bench -- x`\n\nmachine: 2 cores, CPU, Node v20")).toBe(
      true,
    );
    expect(text).toContain("```\nfloor-ratio: 4\n```");
    expect(text).toContain("| floor-ratio ≤ 3 | 4        | **no** |");
    expect(text.endsWith("- a note")).toBe(true);
  });
});

describe("round", () => {
  it("keeps at most the given decimals", () => {
    expect(round(1.23456, 2)).toBe(1.23);
    expect(round(2.5, 0)).toBe(3);
  });
});
