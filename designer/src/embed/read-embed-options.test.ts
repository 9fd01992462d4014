import { describe, expect, it } from "vitest";
import { getChatPageUrl, readEmbedOptions } from "./read-embed-options.js";

const read = (data: Record<string, string | undefined>, src = "https://waddle.example.com/embed.js") =>
  readEmbedOptions({ src, baseUrl: "https://shop.example/page", data });

describe("readEmbedOptions", () => {
  it("reads the chat, the Waddle server it came from and the data-* choices", () => {
    expect(
      read({
        publicId: "pub_ab12",
        publicKey: "wpk_abc_def",
        position: "bottom-left",
        accent: "#0F766E",
        openText: "  Ask   us ",
      }),
    ).toEqual({
      publicId: "pub_ab12",
      publicKey: "wpk_abc_def",
      origin: "https://waddle.example.com",
      position: "bottom-left",
      accent: "#0F766E",
      openText: "Ask us",
    });
  });

  it("falls back to bottom-right, the chat's own colour and a plain button text", () => {
    expect(read({ publicId: "pub_ab12", position: "top", accent: "red", openText: "" })).toMatchObject({
      position: "bottom-right",
      accent: null,
      openText: "Chat with us",
    });
    expect(read({ publicId: "pub_ab12", openText: "x".repeat(80) })).toMatchObject({
      openText: "x".repeat(40),
    });
  });

  it("says what is missing instead of guessing", () => {
    expect(read({})).toEqual({ problem: expect.stringContaining("data-public-id") });
    expect(read({ publicId: 'pub_1"><script>' })).toHaveProperty("problem");
    expect(read({ publicId: "pub_1" }, "javascript:alert(1)")).toHaveProperty("problem");
  });
});

describe("getChatPageUrl", () => {
  it("frames the hosted page in its embedded form", () => {
    expect(getChatPageUrl({ origin: "https://waddle.example.com", publicId: "pub_1" })).toBe(
      "https://waddle.example.com/chat/pub_1?embed=1",
    );
  });
});
