import type { StoredChannel } from "./release-store.js";

interface Entry {
  channel: StoredChannel | undefined;
  readAt: number;
}

/** Agents whose channels are kept at most; the least recently read go first. */
const MAX_AGENTS = 10_000;

/**
 * Channels as one instance last read them from a shared database, for serving reads that may be a little
 * old (`getChannel(…, {maxAgeMs})`): "no such channel" is kept too, since most agents have no production.
 * The instance's own releases forget the agent at once; another instance's are seen once the entry is
 * older than the reader allows. A read that began before a forget is not kept, so it cannot put back what
 * the forget removed.
 */
export class ChannelCache {
  private readonly agents = new Map<string, Map<string, Entry>>();
  private generation = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The channel as read at most `maxAgeMs` ago (`{channel: undefined}`: it did not exist), or undefined. */
  get(agentId: string, name: string, maxAgeMs: number): { channel: StoredChannel | undefined } | undefined {
    const channels = this.agents.get(agentId);
    const entry = channels?.get(name);
    if (!channels || !entry || this.now() - entry.readAt > maxAgeMs) return undefined;
    // Most recently read last, so that the first agent in the map is the one to drop.
    this.agents.delete(agentId);
    this.agents.set(agentId, channels);
    return { channel: entry.channel && { ...entry.channel } };
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
