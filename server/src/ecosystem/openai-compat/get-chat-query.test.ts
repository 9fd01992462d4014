import { describe, expect, it } from "vitest";
import { isApiError } from "../../shared/api-error.js";
import { CONVERSATION_LIMITS, getChatQuery } from "./get-chat-query.js";

const catchError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (isApiError(error)) return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error("no error");
};

describe("getChatQuery", () => {
  it("takes the last user message as the query, with no context for a single message", () => {
    expect(getChatQuery([{ role: "user", content: "  hello  " }])).toEqual({ query: "hello" });
  });

  it("gives earlier messages as the conversation, text parts joined and tool calls named", () => {
    const chat = getChatQuery([
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "part" },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ function: { name: "search" } }] },
      { role: "tool", content: "found it" },
      { role: "user", content: "and now?" },
    ]);
    expect(chat).toEqual({
      query: "and now?",
      contextMeta: {
        conversation: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "first\npart" },
          { role: "assistant", content: "(called tools: search)" },
          { role: "tool", content: "found it" },
        ],
      },
    });
  });

  it("keeps the newest messages within the limits and says how many it left out", () => {
    const messages = Array.from({ length: 60 }, (_, index) => ({
      role: "user" as const,
      content: `message ${index} ${"x".repeat(6_000)}`,
    }));
    const chat = getChatQuery(messages);
    const conversation = chat.contextMeta!.conversation;
    expect(conversation.at(-1)!.content.startsWith("message 58 ")).toBe(true);
    expect(
      conversation.every((message) => message.content.length < CONVERSATION_LIMITS.messageChars + 30),
    ).toBe(true);
    const chars = conversation.reduce((total, message) => total + message.content.length, 0);
    expect(chars).toBeLessThanOrEqual(CONVERSATION_LIMITS.totalChars);
    expect(chat.contextMeta!.omittedMessages).toBe(59 - conversation.length);
  });

  it("refuses a chat that does not end with the user's text, naming the message", () => {
    expect(
      catchError(() =>
        getChatQuery([
          { role: "user", content: "hi" },
          { role: "assistant", content: "yo" },
        ]),
      ),
    ).toEqual({
      message: expect.stringMatching(/^Fix messages\[1\]: the last message must be the user's/),
      details: { param: "messages[1]" },
    });
    expect(catchError(() => getChatQuery([{ role: "user", content: "   " }])).details).toEqual({
      param: "messages[0]",
    });
    expect(
      catchError(() => getChatQuery([{ role: "user", content: [{ type: "image_url" }] }])),
    ).toMatchObject({
      details: { param: "messages[0].content[0]" },
      message: expect.stringMatching(/image_url/),
    });
  });
});
