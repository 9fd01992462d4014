import {
  CreateTriggerResponse,
  Trigger,
  TriggerFiresResponse,
  TriggersResponse,
  type CreateTriggerRequest,
  type TriggerFire,
  type UpdateTriggerRequest,
} from "@waddle/protocol";
import { z } from "zod";
import { route, type ApiRequester } from "./api-requester.js";

/** `PATCH /api/agents/:id/triggers/:triggerId` answers the trigger as it is now. */
const TriggerResponse = z.object({ trigger: Trigger });

/** `/api/agents/:id/triggers` (issue 34): an agent's schedules and webhooks, and their fires. */
export function createTriggersApi(http: ApiRequester) {
  return {
    /** The agent's triggers; a schedule lists its next fire times. */
    async listTriggers(agentId: string): Promise<Trigger[]> {
      return (await http.json("GET", route`/api/agents/${agentId}/triggers`, TriggersResponse)).triggers;
    },

    /**
     * Creates a trigger. A webhook's secret comes back this once; a bad cron or time zone throws ApiError
     * `validation_failed` naming the field.
     */
    async createTrigger(agentId: string, body: CreateTriggerRequest): Promise<CreateTriggerResponse> {
      return http.json("POST", route`/api/agents/${agentId}/triggers`, CreateTriggerResponse, body);
    },

    /** Changes any field but the kind (`{enabled}` turns it on or off); answers the trigger as it is now. */
    async updateTrigger(agentId: string, triggerId: string, patch: UpdateTriggerRequest): Promise<Trigger> {
      const path = route`/api/agents/${agentId}/triggers/${triggerId}`;
      return (await http.json("PATCH", path, TriggerResponse, patch)).trigger;
    },

    async deleteTrigger(agentId: string, triggerId: string): Promise<void> {
      await http.request("DELETE", route`/api/agents/${agentId}/triggers/${triggerId}`);
    },

    /** The trigger's last fires, newest first: each with its run, or why it started none. */
    async listTriggerFires(agentId: string, triggerId: string): Promise<TriggerFire[]> {
      const path = route`/api/agents/${agentId}/triggers/${triggerId}/fires`;
      return (await http.json("GET", path, TriggerFiresResponse)).fires;
    },
  };
}

export type TriggersApi = ReturnType<typeof createTriggersApi>;
