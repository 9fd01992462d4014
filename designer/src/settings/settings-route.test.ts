import { describe, expect, it } from "vitest";
import { getCredentialsHash, parseCredentialsRoute } from "./settings-route.js";

describe("the Credentials route", () => {
  it("reads and writes the page's hash with what to prefill", () => {
    expect(parseCredentialsRoute("#/settings/credentials")).toEqual({});
    expect(parseCredentialsRoute("#/agents/a")).toBeNull();
    const hash = getCredentialsHash({ allow: { list: "http", entry: "127.0.0.1:8080" } });
    expect(parseCredentialsRoute(hash)).toEqual({ allow: { list: "http", entry: "127.0.0.1:8080" } });
    expect(parseCredentialsRoute(getCredentialsHash({ addLlm: "OPENAI_API_KEY" }))).toEqual({
      addLlm: "OPENAI_API_KEY",
    });
    expect(parseCredentialsRoute(getCredentialsHash({ addSecret: "WEATHER_TOKEN" }))).toEqual({
      addSecret: "WEATHER_TOKEN",
    });
  });
});
