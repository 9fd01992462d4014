import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import type { AgentCard } from "@a2a-js/sdk";
import { parseJson, protoSafeReviver } from "@waddle/protocol";
import { z } from "zod";
import type { HostAllowList } from "./host-allow-list.js";
import { requestPinned } from "./pinned-request.js";
import { resolveAllowedAddress, systemLookup, type HostLookup } from "./resolve-allowed-address.js";
import { ToolExecutionError } from "./tool-execution-error.js";

/** The largest Agent Card read: a card is a small JSON document; anything bigger is refused. */
export const MAX_A2A_CARD_BYTES = 256 * 1024;
export const A2A_CARD_TIMEOUT_MS = 10_000;
/** How long a fetched card is used before it is read again. */
export const A2A_CARD_TTL_MS = 5 * 60_000;
export const WELL_KNOWN_CARD_PATH = "/.well-known/agent-card.json";

/** What a card must have for Waddle to use it (either protocol generation): a name, skills, an address. */
const CardShape = z.looseObject({
  name: z.string().min(1).max(500),
  description: z.string().max(20_000).optional(),
  skills: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        name: z.string().max(500),
        description: z.string().max(20_000).optional(),
        examples: z.array(z.string()).max(100).optional(),
      }),
    )
    .max(200),
  url: z.string().optional(),
  supportedInterfaces: z.array(z.looseObject({ url: z.string() })).optional(),
});

/** A card as the designer and the planner see it. */
export interface A2aCardSummary {
  cardUrl: string;
  name: string;
  description: string;
  skills: { name: string; description: string; examples: string[] }[];
  streaming: boolean;
}

export interface A2aCardFetchOptions {
  allowList: HostAllowList;
  lookup?: HostLookup;
  /** Resolved headers (auth) sent with every request to the agent. */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** The card's URL for an impl URL: itself when it names a `.json` document, else its well-known card. */
export function getCardUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolExecutionError("invalid_url", `"${url}" is not a URL: give the A2A agent's address.`);
  }
  if (parsed.pathname.endsWith(".json")) return parsed;
  return new URL(`${parsed.pathname.replace(/\/+$/, "")}${WELL_KNOWN_CARD_PATH}`, parsed);
}

/**
 * A fetch for an A2A agent: only allow-listed hosts at checked addresses (as http tools), with the tool's
 * headers, connecting to the address it checked; no redirects.
 */
export function createAllowListedFetch(options: A2aCardFetchOptions): typeof fetch {
  const lookup = options.lookup ?? systemLookup;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = await resolveAllowedAddress(url, { allowList: options.allowList, lookup });
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    const signals = [init?.signal, options.signal].filter((signal): signal is AbortSignal => Boolean(signal));
    return requestPinned(
      url,
      {
        method: init?.method ?? "GET",
        headers,
        ...(typeof init?.body === "string" ? { body: init.body } : {}),
        signal: signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal,
      },
      target,
    );
  };
}

/**
 * Reads an Agent Card through the allow-list, capped at `MAX_A2A_CARD_BYTES` and `A2A_CARD_TIMEOUT_MS`, and
 * checks it: a host off the list, an answer that is not a card, or one too big is a `ToolExecutionError`
 * that says what to fix.
 */
export async function fetchA2aCard(
  url: string,
  options: A2aCardFetchOptions,
): Promise<{ card: AgentCard; summary: A2aCardSummary }> {
  const cardUrl = getCardUrl(url);
  const signal = AbortSignal.any([
    AbortSignal.timeout(A2A_CARD_TIMEOUT_MS),
    ...(options.signal ? [options.signal] : []),
  ]);
  const fetcher = createAllowListedFetch({ ...options, signal });
  let text: string;
  try {
    const response = await fetcher(cardUrl, {
      headers: { accept: "application/json", "a2a-version": "1.0" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ToolExecutionError(
        "a2a_unavailable",
        `The A2A agent's card at ${cardUrl.href} answered HTTP ${response.status}: check the URL (an agent's address or its agent-card.json).`,
        response.status >= 500,
        { url: cardUrl.href, status: response.status },
      );
    }
    text = await readCapped(response, cardUrl);
  } catch (error) {
    if (error instanceof ToolExecutionError) throw error;
    const timedOut = signal.aborted && !options.signal?.aborted;
    throw new ToolExecutionError(
      "a2a_unavailable",
      timedOut
        ? `The A2A agent's card at ${cardUrl.href} did not arrive within ${A2A_CARD_TIMEOUT_MS / 1000} s.`
        : `Could not read the A2A agent's card at ${cardUrl.href}: ${error instanceof Error ? error.message : String(error)}.`,
      true,
      { url: cardUrl.href },
    );
  }
  const parsed = parseJson(text, { reviver: protoSafeReviver });
  const shape = parsed.ok ? CardShape.safeParse(parsed.value) : undefined;
  if (!parsed.ok || !shape?.success) {
    const why = !parsed.ok
      ? "it is not JSON"
      : (shape?.error?.issues[0]?.path.join(".") ?? "") || "its shape";
    throw new ToolExecutionError(
      "a2a_card_invalid",
      `${cardUrl.href} is not an A2A Agent Card (${parsed.ok ? `bad or missing field: ${why}` : why}): it needs a name, skills and the agent's URL.`,
      false,
      { url: cardUrl.href },
    );
  }
  const raw = shape.data;
  if (!raw.url && !(raw.supportedInterfaces && raw.supportedInterfaces.length > 0)) {
    throw new ToolExecutionError(
      "a2a_card_invalid",
      `The Agent Card at ${cardUrl.href} names no endpoint (no url, no supportedInterfaces).`,
      false,
      { url: cardUrl.href },
    );
  }
  const card = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(raw);
  return {
    card,
    summary: {
      cardUrl: cardUrl.href,
      name: raw.name,
      description: raw.description ?? "",
      skills: raw.skills.map((skill) => ({
        name: skill.name,
        description: skill.description ?? "",
        examples: (skill.examples ?? []).slice(0, 5),
      })),
      streaming: card.capabilities?.streaming === true,
    },
  };
}

async function readCapped(response: Response, cardUrl: URL): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  const tooBig = () =>
    new ToolExecutionError(
      "a2a_card_invalid",
      `The Agent Card at ${cardUrl.href} is larger than ${MAX_A2A_CARD_BYTES / 1024} KB: that is no card Waddle reads.`,
      false,
      { url: cardUrl.href },
    );
  if (declared > MAX_A2A_CARD_BYTES) {
    await response.body?.cancel();
    throw tooBig();
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_A2A_CARD_BYTES) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A short description of the remote agent for the planner: its description and skills. */
export function describeA2aCard(summary: A2aCardSummary): string {
  const skills = summary.skills
    .slice(0, 10)
    .map((skill) => `- ${skill.name}${skill.description ? `: ${skill.description}` : ""}`)
    .join("\n");
  return `Asks the remote A2A agent "${summary.name}". ${summary.description}${skills ? `\nSkills:\n${skills}` : ""}`.slice(
    0,
    4_000,
  );
}
