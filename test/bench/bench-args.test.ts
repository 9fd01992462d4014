import { describe, expect, it } from "vitest";
import { BenchArgsError, parseBenchArgs } from "./bench-args.js";
import { BENCHMARK_NAMES } from "./bench-registry.js";

describe("parseBenchArgs", () => {
  it("runs every benchmark when none is named", () => {
    expect(parseBenchArgs([])).toEqual({
      names: [...BENCHMARK_NAMES],
      write: false,
      quick: false,
      help: false,
    });
  });

  it("keeps the registry order and drops repeats", () => {
    expect(parseBenchArgs(["scale", "overhead", "scale", "--write"])).toMatchObject({
      names: ["overhead", "scale"],
      write: true,
    });
  });

  it("refuses unknown names and options, and quick figures for the docs", () => {
    expect(() => parseBenchArgs(["overheads"])).toThrow(BenchArgsError);
    expect(() => parseBenchArgs(["--fast"])).toThrow(/Unknown option --fast/);
    expect(() => parseBenchArgs(["--quick", "--write"])).toThrow(/drop --quick/);
  });
});
