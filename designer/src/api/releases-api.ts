import {
  AgentDiffResponse,
  ChannelsResponse,
  Release,
  ReleasesResponse,
  type Channel,
  type CreateReleaseRequest,
  type RollbackRequest,
} from "@waddle/protocol";
import { route, withQuery, type ApiRequester } from "./api-requester.js";

/**
 * `/api/agents/:id/channels`, `/releases`, `/channels/:channel/rollback` and `/diff`: where an agent's
 * channels point, how they got there, and what changes between two versions or channels.
 */
export function createReleasesApi(http: ApiRequester) {
  return {
    /** The agent's channels (`production`, `staging`, …) and the version each serves. */
    async listChannels(agentId: string): Promise<Channel[]> {
      return (await http.json("GET", route`/api/agents/${agentId}/channels`, ChannelsResponse)).channels;
    },

    /** Releases and rollbacks, newest first, of every channel or of one. */
    async listReleases(agentId: string, options: { channel?: string } = {}): Promise<Release[]> {
      const query = new URLSearchParams(options.channel ? { channel: options.channel } : {});
      const path = withQuery(route`/api/agents/${agentId}/releases`, query);
      return (await http.json("GET", path, ReleasesResponse)).releases;
    },

    /**
     * Points a channel at a version after the test gate: failing cases throw ApiError `tests_failed`
     * (details: testRunId, failures), a stale `expectedVersion` `channel_moved`, an invalid version 422.
     */
    async createRelease(agentId: string, body: CreateReleaseRequest): Promise<Release> {
      return http.json("POST", route`/api/agents/${agentId}/releases`, Release, body);
    },

    /** Points the channel back at its previous release; none throws ApiError `no_previous_release`. */
    async rollbackChannel(agentId: string, channel: string, body: RollbackRequest = {}): Promise<Release> {
      return http.json("POST", route`/api/agents/${agentId}/channels/${channel}/rollback`, Release, body);
    },

    /** The structural diff from one version or channel to another. */
    async getAgentDiff(
      agentId: string,
      from: number | string,
      to: number | string,
    ): Promise<AgentDiffResponse> {
      const query = new URLSearchParams({ from: String(from), to: String(to) });
      return http.json("GET", withQuery(route`/api/agents/${agentId}/diff`, query), AgentDiffResponse);
    },
  };
}

export type ReleasesApi = ReturnType<typeof createReleasesApi>;
