import type { NotificationBody } from "@waddle/protocol";

/** What a Slack incoming webhook takes: `text` (the notification's fallback) and Block Kit `blocks`. */
export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

/**
 * A notification as a Slack message: its summary with a link to the designer, and a context line with the
 * event type, the agent and the run. Slack reads `&`, `<` and `>` as markup, so they are escaped.
 */
export function getSlackMessage(body: NotificationBody): SlackMessage {
  const summary = typeof body.data["summary"] === "string" ? body.data["summary"] : body.type;
  const link = typeof body.data["link"] === "string" ? body.data["link"] : undefined;
  const context = [
    `*${body.type}*`,
    ...(typeof body.data["agentId"] === "string" ? [`agent \`${escapeSlack(body.data["agentId"])}\``] : []),
    ...(typeof body.data["runId"] === "string" ? [`run \`${escapeSlack(body.data["runId"])}\``] : []),
    ...(body.data["test"] === true ? ["a test notification"] : []),
  ].join(" · ");
  const text = link ? `${escapeSlack(summary)} <${link}|Open in Waddle>` : escapeSlack(summary);
  return {
    text: `${summary}${link ? ` ${link}` : ""}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text } },
      { type: "context", elements: [{ type: "mrkdwn", text: context }] },
    ],
  };
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
