import { randomBytes } from "node:crypto";
import type {
  CreateWebhookRequest,
  CreateWebhookResponse,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
} from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { StoredWebhook, WebhookStore } from "../store/webhooks/webhook-store.js";

/** Who manages webhooks (an `Actor` of server/src/access, read as data): a key limited to some agents, or not. */
export interface WebhookActor {
  name: string;
  agents: readonly string[] | null;
}

/** Seals and opens webhook secrets with the credentials' key (`CredentialVault`). */
export interface SecretSealer {
  sealValue(name: string, value: string): string;
  openValue(name: string, sealed: string): string;
}

/** The name a webhook's secret is sealed under (the seal's authenticated data): it opens for this webhook only. */
export function getSecretName(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/** What the API shows of a stored webhook: never its secret. */
export function toWebhook(stored: StoredWebhook): Webhook {
  const { sealedSecret: _secret, updatedAt: _updated, ...shown } = stored;
  return shown;
}

/**
 * Webhooks as the admin routes manage them: the target's host must pass the HTTP allow-list (400 naming
 * `url`), agents must exist (400 naming `agents`), the secret is generated when not given, sealed, and
 * shown once. A key limited to some agents sees and manages only webhooks limited to those agents.
 */
export class WebhookAdmin {
  constructor(
    private readonly options: {
      store: WebhookStore;
      sealer: SecretSealer;
      getAllowList: () => Promise<HostAllowList>;
      agentExists: (agentId: string) => Promise<boolean>;
      now?: () => Date;
    },
  ) {}

  async create(request: CreateWebhookRequest, actor: WebhookActor): Promise<CreateWebhookResponse> {
    await this.check(request, actor, true);
    const id = `whk_${randomBytes(8).toString("hex")}`;
    const secret = request.secret ?? `whsec_${randomBytes(24).toString("base64url")}`;
    const now = this.now();
    const stored = await this.options.store.create({
      id,
      url: request.url,
      events: unique(request.events),
      agents: request.agents ? unique(request.agents) : null,
      format: request.format ?? "json",
      enabled: request.enabled ?? true,
      createdAt: now,
      createdBy: actor.name,
      sealedSecret: this.options.sealer.sealValue(getSecretName(id), secret),
      updatedAt: now,
    });
    return { webhook: toWebhook(stored), secret };
  }

  async list(actor: WebhookActor): Promise<Webhook[]> {
    return (await this.options.store.list()).filter((webhook) => isInScope(webhook, actor)).map(toWebhook);
  }

  /** The stored webhook; 404 when unknown or out of the actor's scope. */
  async get(id: string, actor: WebhookActor): Promise<StoredWebhook> {
    const webhook = await this.options.store.get(id);
    if (!webhook || !isInScope(webhook, actor))
      throw new ApiError("not_found", `No webhook ${id}: GET /api/webhooks lists them.`, { id });
    return webhook;
  }

  async update(id: string, request: UpdateWebhookRequest, actor: WebhookActor): Promise<Webhook> {
    const current = await this.get(id, actor);
    await this.check(request, actor, false);
    const updated = await this.options.store.update(id, {
      ...(request.url === undefined ? {} : { url: request.url }),
      ...(request.events === undefined ? {} : { events: unique(request.events) }),
      ...(request.agents === undefined ? {} : { agents: unique(request.agents) }),
      ...(request.format === undefined ? {} : { format: request.format }),
      ...(request.enabled === undefined ? {} : { enabled: request.enabled }),
      ...(request.secret === undefined
        ? {}
        : { sealedSecret: this.options.sealer.sealValue(getSecretName(id), request.secret) }),
      updatedAt: this.now(),
    });
    return toWebhook(updated ?? current);
  }

  async delete(id: string, actor: WebhookActor): Promise<void> {
    await this.get(id, actor);
    await this.options.store.delete(id);
  }

  async listDeliveries(id: string, actor: WebhookActor, limit: number): Promise<WebhookDelivery[]> {
    await this.get(id, actor);
    return this.options.store.listDeliveries(id, { limit });
  }

  /** Opens a stored webhook's secret (the deliverer signs with it). */
  openSecret(webhook: StoredWebhook): string {
    return this.options.sealer.openValue(getSecretName(webhook.id), webhook.sealedSecret);
  }

  private async check(request: UpdateWebhookRequest, actor: WebhookActor, creating: boolean): Promise<void> {
    if (request.url !== undefined) {
      const allowList = await this.options.getAllowList();
      const url = new URL(request.url);
      if (!allowList.isAllowed(url)) {
        throw fieldError(
          "url",
          `host "${url.host}" is not on the server's HTTP allow-list: add it under Allowed hosts on the Credentials page, or to WADDLE_HTTP_ALLOW`,
          "host_not_allowed",
        );
      }
    }
    if (request.agents?.length === 0)
      throw fieldError("agents", "name at least one agent, or leave agents out for every agent", "too_small");
    if (creating && actor.agents !== null && request.agents === undefined) {
      throw new ApiError(
        "forbidden",
        `This key may reach only some agents (${actor.agents.join(", ")}): name them in "agents", so that the webhook hears no other agent.`,
      );
    }
    for (const [index, agentId] of (request.agents ?? []).entries()) {
      if (actor.agents !== null && !actor.agents.includes(agentId))
        throw fieldError(`agents[${index}]`, `no agent named "${agentId}"`, "unknown_agent");
      if (!(await this.options.agentExists(agentId)))
        throw fieldError(`agents[${index}]`, `no agent named "${agentId}"`, "unknown_agent");
    }
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

/** A key limited to some agents sees the webhooks limited to some of them; any other actor sees all. */
function isInScope(webhook: StoredWebhook, actor: WebhookActor): boolean {
  if (actor.agents === null) return true;
  return webhook.agents !== null && webhook.agents.every((agentId) => actor.agents!.includes(agentId));
}

/** A 400 shaped as `parseRequest`'s: the field to fix, in the message and in `details.issues`. */
function fieldError(field: string, reason: string, code: string): ApiError {
  return new ApiError("validation_failed", `Fix the field "${field}" of the request body: ${reason}.`, {
    where: "body",
    issues: [{ path: `$.${field}`, message: `${reason[0]!.toUpperCase()}${reason.slice(1)}.`, code }],
  });
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
