import { describe, expect, it } from "vitest";
import { getModelLabel } from "./get-model-label.js";

describe("getModelLabel", () => {
  it("names the offline model", () => {
    expect(getModelLabel({ llm: { provider: "offline", model: "offline" } })).toMatchObject({
      text: "Offline model",
      offline: true,
    });
  });

  it("says an OpenAI spec runs offline on a server without a key", () => {
    const label = getModelLabel({ llm: { provider: "openai", model: "gpt-4o-mini" }, serverOffline: true });
    expect(label).toMatchObject({ text: "Offline model", offline: true });
    expect(label.title).toContain("gpt-4o-mini at api.openai.com");
  });

  it("names the endpoint and model otherwise", () => {
    expect(
      getModelLabel({
        llm: {
          provider: "openai",
          model: "qwen",
          baseUrl: "http://127.0.0.1:8000/v1",
          apiKeyEnv: "LOCAL_KEY",
        },
        serverOffline: true,
      }),
    ).toMatchObject({ text: "qwen @ 127.0.0.1:8000", offline: false });
  });

  it("prefers what the run reported", () => {
    expect(
      getModelLabel({
        llm: { provider: "openai", model: "gpt-4o" },
        ran: { provider: "offline", model: "offline", offline: true },
      }),
    ).toMatchObject({ text: "Offline model instead of gpt-4o", offline: true });
    expect(
      getModelLabel({
        llm: { provider: "openai", model: "gpt-4o" },
        ran: { provider: "offline", model: "offline", offline: true },
        offlineChosen: true,
      }).title,
    ).toContain("You chose it for this run");
    expect(
      getModelLabel({
        llm: { provider: "openai", model: "gpt-4o" },
        ran: { provider: "openai", model: "gpt-4o", offline: false },
      }).text,
    ).toBe("openai · gpt-4o");
  });
});
