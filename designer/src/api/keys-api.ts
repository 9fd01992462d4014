import {
  ApiKeysResponse,
  CreateApiKeyResponse,
  type ApiKeySummary,
  type CreateApiKeyRequest,
} from "@waddle/protocol";
import { route, type ApiRequester } from "./api-requester.js";

/** `/api/keys`: the API keys and their roles (admins only). */
export function createKeysApi(http: ApiRequester) {
  return {
    /** The API keys, never their secrets. */
    async listKeys(): Promise<ApiKeySummary[]> {
      return (await http.json("GET", "/api/keys", ApiKeysResponse)).keys;
    },

    /** Creates a key; the answer's `key` is the only time the secret is sent. */
    async createKey(body: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
      return http.json("POST", "/api/keys", CreateApiKeyResponse, body);
    },

    async revokeKey(id: string): Promise<void> {
      await http.request("DELETE", route`/api/keys/${id}`);
    },
  };
}

export type KeysApi = ReturnType<typeof createKeysApi>;
