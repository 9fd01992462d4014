import { describe, expect, it } from "vitest";
import { AnswerStreamExtractor } from "./answer-stream-extractor.js";

/** Feeds `text` in pieces of `size` characters; returns what each feed returned. */
function feedAll(text: string, size: number): { pieces: string[]; extractor: AnswerStreamExtractor } {
  const extractor = new AnswerStreamExtractor();
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size)
    pieces.push(extractor.feed(text.slice(index, index + size)));
  pieces.push(extractor.end());
  return { pieces, extractor };
}

function streamed(text: string, size: number): string {
  return feedAll(text, size).pieces.join("");
}

describe("AnswerStreamExtractor", () => {
  it("streams args.answer of final_response while the JSON arrives", () => {
    const text = '{"next_node": "final_response", "args": {"answer": "Hello world"}}';
    const { pieces, extractor } = feedAll(text, 5);
    expect(pieces.join("")).toBe("Hello world");
    expect(pieces.filter((piece) => piece.length > 0).length).toBeGreaterThan(1);
    expect(extractor.isFinishAction).toBe(true);
    expect(extractor.emittedCount).toBe(11);
    expect(extractor.isComplete).toBe(true);
  });

  it("emits nothing for a tool call, even when its args have an answer field", () => {
    for (const size of [1, 3, 1000]) {
      const text = '{"next_node": "search", "args": {"answer": "secret tool arg"}}';
      const { pieces, extractor } = feedAll(text, size);
      expect(pieces.join("")).toBe("");
      expect(extractor.isNonTerminal).toBe(true);
      expect(extractor.nextNode).toBe("search");
    }
  });

  it("holds text back when args arrive before next_node, then releases or drops it", () => {
    const terminal = '{"args": {"answer": "early text"}, "next_node": "final_response"}';
    const { pieces } = feedAll(terminal, 4);
    expect(pieces.join("")).toBe("early text");
    const tool = '{"args": {"answer": "tool text"}, "next_node": "lookup"}';
    expect(streamed(tool, 4)).toBe("");
    expect(streamed(tool, 1)).toBe("");
  });

  it("never emits when next_node never comes", () => {
    expect(streamed('{"args": {"answer": "orphan"}}', 3)).toBe("");
  });

  it("streams raw_answer of the legacy next_node null", () => {
    const text = '{"thought": "done", "next_node": null, "args": {"raw_answer": "Legacy answer"}}';
    const { pieces, extractor } = feedAll(text, 2);
    expect(pieces.join("")).toBe("Legacy answer");
    expect(extractor.isFinishAction).toBe(true);
    expect(extractor.nextNode).toBeNull();
  });

  it("does not stream a legacy parallel plan", () => {
    const text = '{"thought": "x", "plan": [{"node": "a", "args": {"answer": "no"}}], "next_node": null}';
    expect(streamed(text, 3)).toBe("");
  });

  it("decodes every JSON escape, whatever the chunk boundaries", () => {
    const answer = 'Quote " slash / back \\ tab\t nl\n cr\r bs\b ff\f é ü 😀 end';
    const text = JSON.stringify({ next_node: "final_response", args: { answer } }).replace("é", "\\u00e9");
    for (const size of [1, 2, 3, 5, 7, 64]) expect(streamed(text, size)).toBe(answer);
  });

  it("joins a surrogate pair written as two \\u escapes split across chunks", () => {
    const text = '{"next_node": "final_response", "args": {"answer": "smile \\ud83d\\ude00!"}}';
    for (const size of [1, 2, 4, 6]) {
      const { pieces } = feedAll(text, size);
      expect(pieces.join("")).toBe("smile 😀!");
      for (const piece of pieces) {
        const last = piece.charCodeAt(piece.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      }
    }
  });

  it("keeps a raw emoji whole when a chunk boundary splits its code units", () => {
    const text = '{"next_node": "final_response", "args": {"answer": "a😀b"}}';
    const { pieces } = feedAll(text, 1);
    expect(pieces.join("")).toBe("a😀b");
    expect(pieces).toContain("😀");
  });

  it("skips prose and fences before the object and anything after it", () => {
    const text =
      'Sure:\n```json\n{"next_node": "final_response", "args": {"answer": "Fenced"}}\n```\n{"answer": "x"}';
    expect(streamed(text, 3)).toBe("Fenced");
  });

  it("streams only the answer field, not nested fields called answer", () => {
    const text = JSON.stringify({
      next_node: "final_response",
      args: { sources: [{ answer: "nested" }], meta: { answer: "deeper" }, answer: "real", confidence: 0.9 },
    });
    expect(streamed(text, 4)).toBe("real");
  });

  it("streams only the first answer string", () => {
    const text = '{"next_node": "final_response", "args": {"answer": "one", "raw_answer": "two"}}';
    expect(streamed(text, 3)).toBe("one");
  });

  it("streams a hybrid top-level answer and a string args", () => {
    expect(streamed('{"next_node": "final_response", "answer": "Top"}', 2)).toBe("Top");
    expect(streamed('{"next_node": "final_response", "args": "Plain"}', 2)).toBe("Plain");
  });

  it("handles literals and numbers around the answer", () => {
    const text =
      '{"next_node":"final_response","args":{"confidence":0.5,"requires_followup":false,"answer":"ok","n":null}}';
    expect(streamed(text, 1)).toBe("ok");
  });

  it("matches JSON.parse for many chunkings of a long answer", () => {
    const answer = Array.from({ length: 60 }, (_, index) => `line ${index} "q" \\ ✓ 𝄞`).join("\n");
    const text = JSON.stringify({ next_node: "final_response", args: { answer, sources: [] } });
    for (const size of [1, 3, 11, 17, 29, 997]) expect(streamed(text, size)).toBe(answer);
  });
});
