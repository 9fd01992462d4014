import type { TestCredentialRequest, TestCredentialResponse } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import {
  forgetCredentialModels,
  getCredentialModels,
  getModelSource,
  rememberCredentialTest,
} from "./credential-models.js";

function createApi(answer: (name: string) => TestCredentialResponse | Error) {
  const calls: { name: string; body: TestCredentialRequest }[] = [];
  return {
    calls,
    api: {
      testCredential(name: string, body: TestCredentialRequest = {}) {
        calls.push({ name, body });
        const result = answer(name);
        return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
      },
    },
  };
}

const listed = (models: string[]): TestCredentialResponse => ({
  ok: true,
  endpoint: "http://127.0.0.1:1/v1",
  via: "models",
  models,
});

describe("the Model field's suggestions", () => {
  it("come from the agent's credential, else OPENAI_API_KEY, never for the offline model", () => {
    const base = { provider: "openai" as const };
    expect(getModelSource({ ...base, credential: "LOCAL" })).toEqual({ credential: "LOCAL" });
    expect(getModelSource({ ...base, baseUrl: "http://127.0.0.1:9/v1" })).toEqual({
      credential: "OPENAI_API_KEY",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(getModelSource({ ...base, apiKeyEnv: "OTHER_KEY" })).toBeUndefined();
    expect(getModelSource({ provider: "offline" })).toBeUndefined();
  });

  it("test each credential and endpoint once, and give none when the test fails", async () => {
    const { api, calls } = createApi((name) =>
      name === "BROKEN" ? new Error("404") : listed(["model-a", "model-b"]),
    );
    expect(await getCredentialModels(api, { credential: "LOCAL" })).toEqual(["model-a", "model-b"]);
    expect(await getCredentialModels(api, { credential: "LOCAL" })).toEqual(["model-a", "model-b"]);
    await getCredentialModels(api, { credential: "LOCAL", baseUrl: "http://127.0.0.1:9/v1" });
    expect(calls).toEqual([
      { name: "LOCAL", body: {} },
      { name: "LOCAL", body: { baseUrl: "http://127.0.0.1:9/v1" } },
    ]);
    expect(await getCredentialModels(api, { credential: "BROKEN" })).toEqual([]);
  });

  it("use the Credentials page's own test, and test again once the credential changed", async () => {
    const { api, calls } = createApi(() => listed(["fresh"]));
    rememberCredentialTest(api, { credential: "LOCAL" }, listed(["from-the-page"]));
    expect(await getCredentialModels(api, { credential: "LOCAL" })).toEqual(["from-the-page"]);
    expect(calls).toEqual([]);
    forgetCredentialModels(api, "LOCAL");
    expect(await getCredentialModels(api, { credential: "LOCAL" })).toEqual(["fresh"]);
  });
});
