import { describe, expect, it } from "vitest";
import {
  LATEST_TARGET,
  getRunTargetLabel,
  getRunTargetOptions,
  getRunTargetRequest,
  getRunTargetValue,
  readRunTargetValue,
} from "./run-target.js";

const channels = [
  { name: "production", version: 9 },
  { name: "staging", version: 11 },
];

describe("run targets", () => {
  it("says what runs and what production serves, only the first half without production", () => {
    expect(getRunTargetLabel(LATEST_TARGET, { latestVersion: 12, channels })).toBe(
      "Runs v12 (latest save) · production is v9",
    );
    expect(getRunTargetLabel(LATEST_TARGET, { latestVersion: 12, channels: [] })).toBe(
      "Runs v12 (latest save)",
    );
    expect(getRunTargetLabel(LATEST_TARGET, { latestVersion: null, channels: [] })).toBe(
      "Runs the latest save",
    );
    expect(getRunTargetLabel({ kind: "channel", channel: "staging" }, { latestVersion: 12, channels })).toBe(
      "Runs staging (v11) · production is v9",
    );
    expect(
      getRunTargetLabel({ kind: "channel", channel: "production" }, { latestVersion: 12, channels }),
    ).toBe("Runs production (v9)");
    expect(getRunTargetLabel({ kind: "version", version: 7 }, { latestVersion: 12, channels: [] })).toBe(
      "Runs v7",
    );
  });

  it("sends the latest save as channel latest, a channel by name and a version as agentVersion", () => {
    expect(getRunTargetRequest(LATEST_TARGET)).toEqual({ channel: "latest" });
    expect(getRunTargetRequest({ kind: "channel", channel: "staging" })).toEqual({ channel: "staging" });
    expect(getRunTargetRequest({ kind: "version", version: 7 })).toEqual({ agentVersion: 7 });
  });

  it("round-trips choices through the picker's values, anything unknown being the latest save", () => {
    for (const choice of [
      LATEST_TARGET,
      { kind: "channel", channel: "staging" } as const,
      { kind: "version", version: 3 } as const,
    ])
      expect(readRunTargetValue(getRunTargetValue(choice))).toEqual(choice);
    expect(readRunTargetValue("version:zero")).toEqual(LATEST_TARGET);
    expect(readRunTargetValue("")).toEqual(LATEST_TARGET);
  });

  it("offers the latest save, each channel, then versions newest first, keeping a choice no list holds", () => {
    const options = getRunTargetOptions({
      latestVersion: 12,
      channels,
      versions: [10, 12, 11, 12],
      choice: LATEST_TARGET,
    });
    expect(options.map((option) => option.label)).toEqual([
      "Latest save (v12)",
      "production (v9)",
      "staging (v11)",
      "v12 only",
      "v11 only",
      "v10 only",
    ]);
    const gone = getRunTargetOptions({
      latestVersion: 12,
      channels: [],
      versions: [],
      choice: { kind: "channel", channel: "canary" },
    });
    expect(gone.at(-1)).toEqual({ value: "channel:canary", label: "canary (no release)" });
  });
});
