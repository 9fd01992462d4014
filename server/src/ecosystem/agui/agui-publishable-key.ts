import { PRODUCTION_CHANNEL } from "@waddle/protocol";
import type { Response } from "express";
import type { Actor } from "../../access/actor.js";
import { getAgentName, parseAgentName } from "../../releases/resolve-agent-name.js";
import { ApiError } from "../../shared/api-error.js";
import type { PublishableKeyGrant } from "../../public/verify-publishable-key.js";
import type { AguiView } from "./agui-event-mapper.js";

export type { PublishableKeyGrant };

export const PUBLISHABLE_KEY_PREFIX = "wpk_";
const GRANT = "aguiPublishableGrant";

/**
 * The actor of a publishable key: a runner limited to its agent that may not decide pauses (its visitors
 * wait for a team member), with its public chat as its rate-limit bucket.
 */
export function createPublishableActor(grant: PublishableKeyGrant): Actor {
  return Object.freeze({
    kind: "key" as const,
    name: `public chat ${grant.publicId}`,
    keyId: `public:${grant.publicId}`,
    role: "runner" as const,
    agents: Object.freeze([grant.agentId]),
    canDecide: false,
  });
}

export function setPublishableGrant(response: Response, grant: PublishableKeyGrant): void {
  response.locals[GRANT] = grant;
}

/** The grant of the request's publishable key; undefined when it came with an API key or the token. */
export function getPublishableGrant(response: Response): PublishableKeyGrant | undefined {
  return response.locals[GRANT] as PublishableKeyGrant | undefined;
}

/**
 * The agent name a publishable key runs for the path's `name`: its agent as its public chat serves it (the
 * plain id for `production`, which is the latest save while the agent has no release; else
 * `agent@channel`). A path naming another channel or a version is a 404 naming the one the key serves.
 */
export function getPublishedAgentName(name: string, grant: PublishableKeyGrant): string {
  const parsed = parseAgentName(name, "@");
  const served = grant.channel ?? PRODUCTION_CHANNEL;
  const asked = parsed?.version ?? parsed?.channel;
  if (asked !== undefined && asked !== served) {
    throw new ApiError(
      "not_found",
      `This publishable key serves "${getAgentName(grant.agentId, served, "@")}" only: leave the ` +
        `@${String(asked)} out of the path.`,
      { channel: served },
    );
  }
  return grant.channel === undefined || grant.channel === PRODUCTION_CHANNEL
    ? grant.agentId
    : getAgentName(grant.agentId, grant.channel, "@");
}

/**
 * What a visitor sees of the run: the tool calls as the chat's `showSteps` says (as read when the key was
 * checked), never the model's thinking (it may quote what a tool got or gave).
 */
export function getVisitorView(grant: PublishableKeyGrant): AguiView {
  return { tools: grant.chat.settings.showSteps, thinking: false };
}
