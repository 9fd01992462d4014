import { describe, expect, it } from "vitest";
import { splitThinkTags, ThinkTagSplitter, type ThinkTagSplit } from "./openai-stream-think-tags.js";

const action = '{"next_node":"final_response","args":{"answer":"Paris."}}';
const tagged = `<think>\nThe user wants a capital.\nFrance → Paris.\n</think>\n\n${action}`;

/** Feeds `text` in pieces of `size` characters and joins what comes out. */
function streamInPieces(text: string, size: number): ThinkTagSplit & { pieces: ThinkTagSplit[] } {
  const splitter = new ThinkTagSplitter();
  const pieces: ThinkTagSplit[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(splitter.push(text.slice(start, start + size)));
  pieces.push(splitter.end());
  return {
    reasoning: pieces.map((piece) => piece.reasoning).join(""),
    content: pieces.map((piece) => piece.content).join(""),
    pieces,
  };
}

describe("splitThinkTags", () => {
  it("routes a leading think block to reasoning and keeps what follows as content", () => {
    expect(splitThinkTags(tagged)).toEqual({
      reasoning: "The user wants a capital.\nFrance → Paris.",
      content: action,
    });
    expect(splitThinkTags(`  \n<think>short</think>${action}`)).toEqual({
      reasoning: "short",
      content: action,
    });
  });

  it("leaves content without a leading block exactly as it came", () => {
    for (const text of [
      action,
      `\n  ${action}`,
      "",
      "   ",
      "<thinking>not ours</thinking>{}",
      "<thi",
      "Plain text.",
    ]) {
      expect(splitThinkTags(text)).toEqual({ reasoning: "", content: text });
    }
  });

  it("only counts a leading block: tags inside a JSON string are content", () => {
    const quoting = '{"next_node":"final_response","args":{"answer":"Write <think>x</think> to show it."}}';
    expect(splitThinkTags(quoting)).toEqual({ reasoning: "", content: quoting });
    const both = `<think>plan</think>${quoting}`;
    expect(splitThinkTags(both)).toEqual({ reasoning: "plan", content: quoting });
  });

  it("treats an unclosed block as reasoning only, and an empty block as nothing", () => {
    expect(splitThinkTags("<think>\nStill thinking when the tokens ran out  ")).toEqual({
      reasoning: "Still thinking when the tokens ran out",
      content: "",
    });
    expect(splitThinkTags(`<think>\n\n</think>\n\n${action}`)).toEqual({ reasoning: "", content: action });
  });
});

describe("ThinkTagSplitter", () => {
  it("gives the same split whatever the deltas, tags cut anywhere", () => {
    const texts = [
      tagged,
      action,
      `  ${action}`,
      `<think>a</think>b`,
      "<think>x</thin",
      "<th",
      `<think></think>`,
    ];
    for (const text of texts) {
      const whole = splitThinkTags(text);
      for (let size = 1; size <= text.length; size += 1) {
        const streamed = streamInPieces(text, size);
        expect({ reasoning: streamed.reasoning, content: streamed.content }, `${text} by ${size}`).toEqual(
          whole,
        );
      }
    }
  });

  it("passes reasoning on as it arrives, before the block closes", () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push("<thi")).toEqual({ reasoning: "", content: "" });
    expect(splitter.push("nk>\nFirst thought")).toEqual({ reasoning: "First thought", content: "" });
    // A possible closing tag and the whitespace before it wait for the next delta.
    expect(splitter.push(" and a second. </th")).toEqual({ reasoning: " and a second.", content: "" });
    expect(splitter.push("ink>\n\n{")).toEqual({ reasoning: "", content: "{" });
    expect(splitter.push('"a":1}')).toEqual({ reasoning: "", content: '"a":1}' });
    expect(splitter.end()).toEqual({ reasoning: "", content: "" });
  });

  it("passes content on at once when the reply does not open with a tag", () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push("{")).toEqual({ reasoning: "", content: "{" });
    expect(splitter.push("<think>")).toEqual({ reasoning: "", content: "<think>" });
  });

  it("holds a text that is still a tag's beginning until the reply ends", () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push(" <thin")).toEqual({ reasoning: "", content: "" });
    expect(splitter.end()).toEqual({ reasoning: "", content: " <thin" });
  });
});
