import { describe, expect, it } from "vitest";
import { getChannelNameIssue } from "./get-channel-name-issue.js";

describe("getChannelNameIssue", () => {
  it("takes the pattern's names and says what is wrong with others", () => {
    for (const name of ["production", "staging", "eu-canary-2", "a"])
      expect(getChannelNameIssue(name)).toBeNull();
    expect(getChannelNameIssue("")).toContain("Name the channel");
    expect(getChannelNameIssue("latest")).toContain("reserved");
    expect(getChannelNameIssue("Staging")).toContain('"Staging" is not a channel name');
    expect(getChannelNameIssue("2nd")).toContain("starting with a letter");
    expect(getChannelNameIssue(`a${"b".repeat(32)}`)).toContain("at most 32");
  });
});
