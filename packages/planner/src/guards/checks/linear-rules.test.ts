import { describe, expect, it } from "vitest";
import { createScanner, type ScanningCheck } from "./create-scanner.js";

// Adversarial texts for every built-in rule: long runs of the characters the patterns repeat over. A rule
// that backtracks badly takes minutes on any of these (quadratic over a 32 KB window is 10^9 steps) and the
// test times out; the assertions themselves are about structure (slices read, yields made), never time.
const SIZE = 256 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const ADVERSARIAL = [
  "a@", "a", "a.", "a@a.", "@a.a.a", "1", "1 ", "1-", "1.", "+1 ", "(1) ", " ", "\n", "-", "DE89 ", "A", "A1",
  "eyJ-", "eyJa.", "sk-", "ghp_", "xoxb-", "AIza", "Bearer ", "api_key=", "password: ", "://a:", "-----BEGIN PRIVATE KEY-----!",
  "ignore all ", "ignore the ", "you are ", "assistant ", "AI agent ", "note ", "#", "### ", "<|", "[[", "![a](http://x?",
  "send a ", "if you are ", "the previous ", "Dear AI, ", ": AI ", "...",
]; // prettier-ignore

const CHECKS: ScanningCheck[] = [
  { kind: "pii" },
  { kind: "secrets" },
  { kind: "prompt_injection" },
  { kind: "deny_words", words: ["alpha", "a b", "1 1"] },
];

describe("the built-in rules on adversarial input", () => {
  it.each(CHECKS.map((check) => [check.kind, check] as const))(
    "%s finishes every run, slice by slice",
    async (_kind, check) => {
      let yields = 0;
      const scanner = createScanner(check, { yieldToLoop: async () => void (yields += 1) });
      for (const unit of ADVERSARIAL) {
        const before = yields;
        await scanner.scan(fill(unit));
        // 256 KB in slices of 32 KB: 8 slices, 7 yields between them.
        expect(yields - before, JSON.stringify(unit)).toBe(7);
      }
    },
  );
});
