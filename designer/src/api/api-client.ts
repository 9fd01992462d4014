import { createAgentsApi, type AgentsApi } from "./agents-api.js";
import { createApiRequester, type ApiClientOptions } from "./api-requester.js";
import { createCredentialsApi, type CredentialsApi } from "./credentials-api.js";
import { createDraftsApi, type DraftsApi } from "./drafts-api.js";
import { createGuardsApi, type GuardsApi } from "./guards-api.js";
import { createInboxApi, type InboxApi } from "./inbox-api.js";
import { createKeysApi, type KeysApi } from "./keys-api.js";
import { createPublicChatApi, type PublicChatApi } from "./public-chat-api.js";
import { createReleasesApi, type ReleasesApi } from "./releases-api.js";
import { createRunsApi, type RunsApi } from "./runs-api.js";
import { createSessionsApi, type SessionsApi } from "./sessions-api.js";
import { createShadowApi, type ShadowApi } from "./shadow-api.js";
import { createTestsApi, type TestsApi } from "./tests-api.js";
import { createToolsApi, type ToolsApi } from "./tools-api.js";
import { createTriggersApi, type TriggersApi } from "./triggers-api.js";

/**
 * The Waddle REST API, one module per resource as the server's routes are split, over one requester.
 * Every answer is checked against the protocol's zod schemas (a boundary); failures throw `ApiError` with
 * the server's code, or `invalid_response` / `network_error`. Code that needs a few calls asks for a
 * `Pick` of the resource it uses (`Pick<RunsApi, "getRunEvents">`).
 */
export type ApiClient = AgentsApi &
  DraftsApi &
  RunsApi &
  SessionsApi &
  TestsApi &
  ToolsApi &
  CredentialsApi &
  KeysApi &
  PublicChatApi &
  ReleasesApi &
  ShadowApi &
  InboxApi &
  TriggersApi &
  GuardsApi;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const http = createApiRequester(options);
  return {
    ...createAgentsApi(http),
    ...createDraftsApi(http),
    ...createRunsApi(http),
    ...createSessionsApi(http),
    ...createTestsApi(http),
    ...createToolsApi(http),
    ...createCredentialsApi(http),
    ...createKeysApi(http),
    ...createPublicChatApi(http),
    ...createReleasesApi(http),
    ...createShadowApi(http),
    ...createInboxApi(http),
    ...createTriggersApi(http),
    ...createGuardsApi(http),
  };
}
