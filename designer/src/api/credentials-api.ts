import {
  AllowListResponse,
  CredentialInfo,
  CredentialsCheckResponse,
  CredentialsResponse,
  TestCredentialResponse,
  type AgentSpec,
  type PutAllowListRequest,
  type PutCredentialRequest,
  type TestCredentialRequest,
} from "@waddle/protocol";
import { route, type ApiRequester } from "./api-requester.js";

/** `/api/credentials` and `/api/allowlist`: what the server holds for tools to reach the outside. */
export function createCredentialsApi(http: ApiRequester) {
  return {
    /** Every credential (the environment's read-only ones too); never a value. */
    async listCredentials(): Promise<CredentialInfo[]> {
      return (await http.json("GET", "/api/credentials", CredentialsResponse)).credentials;
    },

    /** Stores or replaces a credential; a bad name or a value over 16 KB throws ApiError (400). */
    async putCredential(name: string, body: PutCredentialRequest): Promise<CredentialInfo> {
      return http.json("PUT", route`/api/credentials/${name}`, CredentialInfo, body);
    },

    async deleteCredential(name: string): Promise<void> {
      await http.request("DELETE", route`/api/credentials/${name}`);
    },

    /**
     * Tries an LLM credential's key on its endpoint (or `baseUrl`): its models, or why it failed. A name
     * that is no LLM credential throws ApiError (404).
     */
    async testCredential(name: string, body: TestCredentialRequest = {}): Promise<TestCredentialResponse> {
      return http.json("POST", route`/api/credentials/${name}/test`, TestCredentialResponse, body);
    },

    /** What Run would meet for this spec on this server: its model's key and endpoint, http hosts. */
    async checkCredentials(spec: AgentSpec): Promise<CredentialsCheckResponse> {
      return http.json("POST", "/api/credentials/check", CredentialsCheckResponse, { spec });
    },

    async getAllowList(): Promise<AllowListResponse> {
      return http.json("GET", "/api/allowlist", AllowListResponse);
    },

    /** Replaces the stored allow-list entries; a bad entry throws ApiError (400) saying why. */
    async putAllowList(body: PutAllowListRequest): Promise<AllowListResponse> {
      return http.json("PUT", "/api/allowlist", AllowListResponse, body);
    },
  };
}

export type CredentialsApi = ReturnType<typeof createCredentialsApi>;
