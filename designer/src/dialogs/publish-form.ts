import {
  ANY_ORIGIN,
  PRODUCTION_CHANNEL,
  PublicChatSettings,
  type PublicChat,
  type ShowSteps,
} from "@waddle/protocol";

/** The Publish dialog's fields as typed: lists one entry a line, numbers as text. */
export interface PublishForm {
  enabled: boolean;
  channel: string;
  title: string;
  welcome: string;
  /** One starter a line. */
  starters: string;
  /** One origin a line; `*` for any site. */
  allowedOrigins: string;
  /** The editor confirmed that `*` lets any site embed the chat. */
  allowAnyOrigin: boolean;
  showSteps: ShowSteps;
  rateLimit: string;
  chatRateLimit: string;
  maxTurns: string;
  accent: string;
  logoUrl: string;
}

export type PublishFormErrors = Partial<Record<keyof PublishForm, string>>;

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** The form for a chat as saved, or a new one named after the agent (on: saving it publishes it). */
export function getPublishForm(chat: PublicChat | null, agentName: string): PublishForm {
  return {
    enabled: chat?.enabled ?? true,
    channel: chat?.channel ?? PRODUCTION_CHANNEL,
    title: chat?.title ?? agentName,
    welcome: chat?.welcome ?? "",
    starters: (chat?.starters ?? []).join("\n"),
    allowedOrigins: (chat?.allowedOrigins ?? []).join("\n"),
    allowAnyOrigin: chat?.allowAnyOrigin ?? false,
    showSteps: chat?.showSteps ?? "names",
    rateLimit: chat?.rateLimit ?? "",
    chatRateLimit: chat?.chatRateLimit ?? "",
    maxTurns: chat?.maxTurns === undefined ? "" : String(chat.maxTurns),
    accent: chat?.theme?.accent ?? "",
    logoUrl: chat?.theme?.logoUrl ?? "",
  };
}

/**
 * Why an allowed-origins entry is not an origin as browsers send it (scheme, host, port; no path, no
 * trailing slash), or null. The server checks the same and names the entry in its 400.
 */
export function getOriginProblem(entry: string): string | null {
  if (entry === ANY_ORIGIN) return null;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `"${entry}" is not an origin: write the scheme, host and port if any, such as https://example.com.`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `"${entry}" is not an http(s) origin.`;
  if (url.origin !== entry.toLowerCase())
    return `"${entry}" is not an origin (no path, query or trailing slash): write ${url.origin}.`;
  return null;
}

/** The form as the settings `PUT /api/agents/:id/public` takes, or what to fix, field by field. */
export function getPublishSettings(
  form: PublishForm,
): { ok: true; settings: PublicChatSettings } | { ok: false; errors: PublishFormErrors } {
  const errors: PublishFormErrors = {};
  const origins = lines(form.allowedOrigins);
  const originProblem = origins.map(getOriginProblem).find((problem) => problem !== null);
  if (originProblem) errors.allowedOrigins = originProblem;
  else if (origins.includes(ANY_ORIGIN) && !form.allowAnyOrigin)
    errors.allowAnyOrigin = "Tick this to let any site embed the chat, or list the sites instead of *.";
  const maxTurns = form.maxTurns.trim() === "" ? undefined : Number(form.maxTurns);
  const accent = form.accent.trim();
  const logoUrl = form.logoUrl.trim();
  const candidate = {
    enabled: form.enabled,
    ...(form.channel.trim() && form.channel.trim() !== PRODUCTION_CHANNEL
      ? { channel: form.channel.trim() }
      : {}),
    title: form.title,
    ...(form.welcome.trim() ? { welcome: form.welcome.trim() } : {}),
    starters: lines(form.starters),
    allowedOrigins: origins,
    ...(origins.includes(ANY_ORIGIN) ? { allowAnyOrigin: form.allowAnyOrigin } : {}),
    showSteps: form.showSteps,
    ...(form.rateLimit.trim() ? { rateLimit: form.rateLimit.trim() } : {}),
    ...(form.chatRateLimit.trim() ? { chatRateLimit: form.chatRateLimit.trim() } : {}),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(accent || logoUrl
      ? { theme: { ...(accent ? { accent } : {}), ...(logoUrl ? { logoUrl } : {}) } }
      : {}),
  };
  const parsed = PublicChatSettings.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = getFormField(issue.path);
      if (field && !errors[field]) errors[field] = getIssueText(field, issue.message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, settings: parsed.data };
}

/** The form field a settings path belongs to. */
function getFormField(path: readonly PropertyKey[]): keyof PublishForm | undefined {
  const [head, next] = path;
  if (head === "theme") return next === "logoUrl" ? "logoUrl" : "accent";
  if (head === "allowedOrigins") return "allowedOrigins";
  const fields: readonly (keyof PublishForm)[] = [
    "channel",
    "title",
    "welcome",
    "starters",
    "showSteps",
    "rateLimit",
    "chatRateLimit",
    "maxTurns",
  ];
  return fields.find((field) => field === head);
}

const ISSUE_TEXT: Partial<Record<keyof PublishForm, string>> = {
  title: "Give the chat a title (up to 120 characters).",
  starters: "Up to 6 starters, each up to 200 characters.",
  rateLimit: "Write a rate such as 20/min or 200/h.",
  chatRateLimit: "Write a rate such as 600/min or 5000/h.",
  maxTurns: "A whole number from 1 to 1000, or empty for no limit.",
  accent: "A hex colour such as #2563eb.",
  logoUrl: "An http(s) address of an image.",
  channel: "A channel name such as production or staging.",
  welcome: "Up to 2000 characters.",
};

function getIssueText(field: keyof PublishForm, message: string): string {
  return ISSUE_TEXT[field] ?? message;
}
