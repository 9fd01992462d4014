import { LATEST_CHANNEL, PRODUCTION_CHANNEL, type Channel } from "@waddle/protocol";

/**
 * What the designer's Run and Chat start: the latest save (the default, whatever the channels say), a
 * channel as it points now, or one saved version.
 */
export type RunTargetChoice =
  { kind: "latest" } | { kind: "channel"; channel: string } | { kind: "version"; version: number };

export const LATEST_TARGET: RunTargetChoice = { kind: "latest" };

/** What `POST /api/runs` and `POST /api/sessions` are sent for the choice. */
export function getRunTargetRequest(choice: RunTargetChoice): { channel: string } | { agentVersion: number } {
  if (choice.kind === "version") return { agentVersion: choice.version };
  return { channel: choice.kind === "channel" ? choice.channel : LATEST_CHANNEL };
}

/** The choice as a `<select>` value: `latest`, `channel:staging`, `version:7`. */
export function getRunTargetValue(choice: RunTargetChoice): string {
  if (choice.kind === "channel") return `channel:${choice.channel}`;
  if (choice.kind === "version") return `version:${choice.version}`;
  return "latest";
}

/** Reads a `<select>` value back (anything unknown is the latest save). */
export function readRunTargetValue(value: string): RunTargetChoice {
  if (value.startsWith("channel:")) return { kind: "channel", channel: value.slice("channel:".length) };
  const version = value.startsWith("version:") ? Number(value.slice("version:".length)) : Number.NaN;
  return Number.isInteger(version) && version > 0 ? { kind: "version", version } : LATEST_TARGET;
}

export interface RunTargetContext {
  /** The agent's newest saved version (null: not saved yet). */
  latestVersion: number | null;
  channels: readonly Pick<Channel, "name" | "version">[];
}

/**
 * The line above Run and New chat: "Runs v12 (latest save) · production is v9", "Runs staging (v11) ·
 * production is v9", "Runs v7". The second half only when production exists and is not what runs.
 */
export function getRunTargetLabel(choice: RunTargetChoice, context: RunTargetContext): string {
  const production = context.channels.find((channel) => channel.name === PRODUCTION_CHANNEL);
  const runs = getRunsText(choice, context);
  const producing =
    production && !(choice.kind === "channel" && choice.channel === PRODUCTION_CHANNEL)
      ? ` · production is v${production.version}`
      : "";
  return `${runs}${producing}`;
}

function getRunsText(choice: RunTargetChoice, context: RunTargetContext): string {
  if (choice.kind === "version") return `Runs v${choice.version}`;
  if (choice.kind === "channel") {
    const channel = context.channels.find((entry) => entry.name === choice.channel);
    return channel ? `Runs ${channel.name} (v${channel.version})` : `Runs ${choice.channel} (no release)`;
  }
  return context.latestVersion === null
    ? "Runs the latest save"
    : `Runs v${context.latestVersion} (latest save)`;
}

export interface RunTargetOption {
  value: string;
  label: string;
}

/** The picker's entries: the latest save, each channel, then the recent versions, newest first. */
export function getRunTargetOptions(
  context: RunTargetContext & { versions: readonly number[]; choice: RunTargetChoice },
): RunTargetOption[] {
  const latest = context.latestVersion === null ? "" : ` (v${context.latestVersion})`;
  const options: RunTargetOption[] = [{ value: "latest", label: `Latest save${latest}` }];
  for (const channel of context.channels)
    options.push({ value: `channel:${channel.name}`, label: `${channel.name} (v${channel.version})` });
  const versions = [...new Set(context.versions)].sort((a, b) => b - a);
  for (const version of versions) options.push({ value: `version:${version}`, label: `v${version} only` });
  // a choice the lists no longer hold (a channel just gone, an old version) stays visible
  const value = getRunTargetValue(context.choice);
  if (!options.some((option) => option.value === value))
    options.push({ value, label: getRunsText(context.choice, context).replace(/^Runs /, "") });
  return options;
}
