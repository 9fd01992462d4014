import { describe, expect, it } from "vitest";
import { getInitials } from "./whoami.js";

describe("getInitials", () => {
  it("takes the first letters of the first two words", () => {
    expect(getInitials("Ed Editor")).toBe("EE");
    expect(getInitials("Edwina Editor-Longfellow")).toBe("EE");
    expect(getInitials("WADDLE_TOKEN")).toBe("WT");
    expect(getInitials("support bot")).toBe("SB");
  });

  it("one letter for one word, and a placeholder for a name without letters", () => {
    expect(getInitials("local")).toBe("L");
    expect(getInitials("élodie")).toBe("É");
    expect(getInitials("--")).toBe("?");
  });
});
