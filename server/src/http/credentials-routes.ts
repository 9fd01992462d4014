import {
  AgentSpec,
  CredentialNameParam,
  PutAllowListRequest,
  PutCredentialRequest,
  TestCredentialRequest,
  type CredentialsCheckResponse,
  type CredentialsResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { checkAgentSettings, isTemplateHostAllowed } from "../credentials/check-agent-settings.js";
import type { CredentialVault } from "../credentials/credential-vault.js";
import { parseRequest } from "./validate-request.js";
import { audit } from "../access/audit-trail.js";
import { ApiError } from "../shared/api-error.js";
import { DEFAULT_LLM_ORIGIN } from "../llm/llm-endpoint-policy.js";
import { testLlmCredential } from "../credentials/test-llm-credential.js";

const CheckRequest = z.strictObject({ spec: AgentSpec });
const HostCheckRequest = z.strictObject({ urls: z.array(z.string().max(4_000)).max(500) });

/**
 * `/api/credentials` and `/api/allowlist`: credentials and allowed hosts managed from the browser. Values
 * go in and never come out (name, kind, last 4 characters, `updatedAt`); the environment's entries are
 * listed read-only. `POST /api/credentials/check` tells what Run would meet for a spec; `POST
 * /api/allowlist/check` whether http tool URLs' hosts are allowed (for validation's "Allow host…"). `POST
 * /api/credentials/:name/test` tries an LLM key on its endpoint and lists its models.
 */
export function createCredentialsRoutes(options: { vault: CredentialVault; env: NodeJS.ProcessEnv }): Router {
  const { vault } = options;
  const router = Router();
  router.get("/credentials", async (_request, response) => {
    const body: CredentialsResponse = { credentials: await vault.list() };
    response.json(body);
  });
  router.post("/credentials/check", async (request, response) => {
    const { spec } = parseRequest(CheckRequest, request.body, "body");
    const body: CredentialsCheckResponse = checkAgentSettings(spec, {
      settings: await vault.getRunSettings(),
      env: options.env,
    });
    response.json(body);
  });
  router.post("/credentials/:name/test", async (request, response) => {
    const { name } = parseRequest(CredentialNameParam, request.params, "params");
    const body = parseRequest(TestCredentialRequest, request.body ?? {}, "body");
    const settings = await vault.getRunSettings();
    const key = settings.getLlmKey(name);
    if (key === undefined) {
      throw new ApiError(
        "not_found",
        `There is no LLM credential named ${name} on this server: add it on the Credentials page, or pick one ` +
          "of the LLM endpoints listed there (a secret cannot be tested, only an LLM key).",
        { name },
      );
    }
    const stored = (await vault.list()).find((item) => item.name === name && item.kind === "llm");
    const baseUrl =
      body.baseUrl ?? key.baseUrl ?? options.env.OPENAI_BASE_URL?.trim() ?? `${DEFAULT_LLM_ORIGIN}/v1`;
    response.json(
      await testLlmCredential({
        key: key.key,
        baseUrl: baseUrl || `${DEFAULT_LLM_ORIGIN}/v1`,
        model: body.model,
        knownModels: stored?.models,
        policy: settings.llmPolicy,
      }),
    );
  });
  router.put("/credentials/:name", async (request, response) => {
    const { name } = parseRequest(CredentialNameParam, request.params, "params");
    const body = parseRequest(PutCredentialRequest, request.body, "body");
    const saved = await vault.put(name, body);
    // Never the value: its name and kind only.
    await audit(response, {
      action: "credential.put",
      target: { type: "credential", id: name },
      details: { kind: body.kind },
    });
    response.json(saved);
  });
  router.delete("/credentials/:name", async (request, response) => {
    const { name } = parseRequest(CredentialNameParam, request.params, "params");
    await vault.delete(name);
    await audit(response, { action: "credential.deleted", target: { type: "credential", id: name } });
    response.status(204).end();
  });
  router.get("/allowlist", async (_request, response) => {
    response.json(await vault.getAllowList());
  });
  router.put("/allowlist", async (request, response) => {
    const body = parseRequest(PutAllowListRequest, request.body, "body");
    const before = await vault.getAllowList();
    const after = await vault.putAllowList(body);
    for (const list of ["http", "llm"] as const) {
      const stored = (answer: typeof before) =>
        new Set(answer[list].filter((item) => item.source === "stored").map((item) => item.entry));
      const [was, now] = [stored(before), stored(after)];
      for (const entry of now) {
        if (!was.has(entry))
          await audit(response, {
            action: "allowlist.added",
            target: { type: `allowlist:${list}`, id: entry },
          });
      }
      for (const entry of was) {
        if (!now.has(entry))
          await audit(response, {
            action: "allowlist.removed",
            target: { type: `allowlist:${list}`, id: entry },
          });
      }
    }
    response.json(after);
  });
  router.post("/allowlist/check", async (request, response) => {
    const { urls } = parseRequest(HostCheckRequest, request.body, "body");
    const { allowList } = await vault.getRunSettings();
    response.json({
      http: urls.map((url) => ({ url, allowed: isTemplateHostAllowed(allowList, url) ?? null })),
    });
  });
  return router;
}
