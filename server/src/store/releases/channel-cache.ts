import type { StoredChannel } from "./release-store.js";

interface Entry {
  channel: StoredChannel | undefined;
  readAt: number;
  /** A caller was asked to read it again. */
  refreshing?: true;
}

/** Agents whose channels are kept at most; the least recently read go first. */
const MAX_AGENTS = 10_000;

/**
 * Channels as one instance last read them from a shared database, for serving reads that may be a little
 * old (`getChannel(…, {maxAgeMs})`): "no such channel" is kept too, since most agents have no production.
 * The instance's own releases forget the agent at once; another instance's are seen once the entry is
 * older than the reader allows. A read that began before a forget is not kept, so it cannot put back what
 * the forget removed. Past half its allowed age an entry is still answered, and one caller is asked to read
 * it again meanwhile, so that a channel in use is never waited for.
 */
export class ChannelCache {
  private readonly agents = new Map<string, Map<string, Entry>>();
  private generation = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * The channel as read at most `maxAgeMs` ago (`{channel: undefined}`: it did not exist), or undefined.
   * `refresh`: the entry is past half that age and this caller, the first to see it so, should read it again.
   */
  get(
    agentId: string,
    name: string,
    maxAgeMs: number,
  ): { channel: StoredChannel | undefined; refresh: boolean } | undefined {
    const channels = this.agents.get(agentId);
    const entry = channels?.get(name);
    const age = entry && this.now() - entry.readAt;
    if (!channels || !entry || age === undefined || age > maxAgeMs) return undefined;
    // Most recently read last, so that the first agent in the map is the one to drop.
    this.agents.delete(agentId);
    this.agents.set(agentId, channels);
    const refresh = age > maxAgeMs / 2 && !entry.refreshing;
    if (refresh) entry.refreshing = true;
    return { channel: entry.channel && { ...entry.channel }, refresh };
  }

  /** Starts a read: what `keep` needs to know whether a forget happened meanwhile. */
  begin(): { readAt: number; generation: number } {
    return { readAt: this.now(), generation: this.generation };
  }

  /** Keeps what a read begun at `read` found, unless the agent was forgotten since. */
  keep(options: {
    agentId: string;
    name: string;
    channel: StoredChannel | undefined;
    read: { readAt: number; generation: number };
  }): void {
    if (options.read.generation !== this.generation) return;
    let channels = this.agents.get(options.agentId);
    if (!channels) {
      if (this.agents.size >= MAX_AGENTS) this.agents.delete(this.agents.keys().next().value!);
      channels = new Map();
      this.agents.set(options.agentId, channels);
    }
    channels.set(options.name, {
      channel: options.channel && { ...options.channel },
      readAt: options.read.readAt,
    });
  }

  /** This instance moved or deleted the agent's channels: read them afresh from now on. */
  forget(agentId: string): void {
    this.generation += 1;
    this.agents.delete(agentId);
  }
}
