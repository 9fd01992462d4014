import { LATEST_CHANNEL, ReleaseChannelName } from "@waddle/protocol";

/** Why a typed channel name cannot be released to, in words, or null when it can. */
export function getChannelNameIssue(name: string): string | null {
  if (name === "") return "Name the channel: production, staging, or a name of your own.";
  if (name === LATEST_CHANNEL)
    return `"${LATEST_CHANNEL}" is reserved: it always means the latest save. Choose another name.`;
  if (ReleaseChannelName.safeParse(name).success) return null;
  return `"${name}" is not a channel name: use lower-case letters, digits and dashes, starting with a letter, at most 32 (e.g. staging or eu-canary).`;
}
