import { InboxItemResponse, InboxResponse, type InboxItem, type InboxQuery } from "@waddle/protocol";
import { route, withQuery, type ApiRequester } from "./api-requester.js";

/** The query string of `GET /api/inbox`: only the filters that are set, in a stable order. */
export function getInboxSearchParams(query: InboxQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["agentId", "kind", "assignee", "state", "cursor", "limit"] as const) {
    const value = query[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params;
}

/** `/api/inbox` (issue 34): what waits for a person across agents, its assignee and snooze. */
export function createInboxApi(http: ApiRequester) {
  return {
    /** One page of the inbox, newest first, with the open count for the header's badge. */
    async listInbox(query: InboxQuery = {}): Promise<InboxResponse> {
      return http.json("GET", withQuery("/api/inbox", getInboxSearchParams(query)), InboxResponse);
    },

    /** Assigns the item to a key's name, or unassigns it (null); answers the item as it is now. */
    async assignInboxItem(itemId: string, assignee: string | null): Promise<InboxItem> {
      const path = route`/api/inbox/${itemId}/assign`;
      return (await http.json("POST", path, InboxItemResponse, { assignee })).item;
    },

    /** Hides the item until `until` (ISO), or wakes it now (null); answers the item as it is now. */
    async snoozeInboxItem(itemId: string, until: string | null): Promise<InboxItem> {
      const path = route`/api/inbox/${itemId}/snooze`;
      return (await http.json("POST", path, InboxItemResponse, { until })).item;
    },
  };
}

export type InboxApi = ReturnType<typeof createInboxApi>;
