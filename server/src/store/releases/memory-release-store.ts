import { StoreError } from "../waddle-store.js";
import { getChannelOf, type ReleaseStore, type StoredChannel, type StoredRelease } from "./release-store.js";

/** Releases in an array (oldest first) and channels in a map, for the in-memory store. */
export class MemoryReleaseStore implements ReleaseStore {
  private readonly releases: StoredRelease[] = [];
  private readonly channels = new Map<string, string>();

  async create(
    release: StoredRelease,
    options: { expectedReleaseId?: string | null } = {},
  ): Promise<StoredRelease> {
    const key = `${release.agentId}\u0000${release.channel}`;
    const current = this.channels.get(key) ?? null;
    if (options.expectedReleaseId !== undefined && options.expectedReleaseId !== current) {
      const channel = await this.getChannel(release.agentId, release.channel);
      throw new StoreError("conflict", `Channel "${release.channel}" moved meanwhile.`, {
        channel: channel ?? null,
      });
    }
    this.releases.push(structuredClone(release));
    this.channels.set(key, release.id);
    return structuredClone(release);
  }

  async listChannels(agentId: string): Promise<StoredChannel[]> {
    const channels: StoredChannel[] = [];
    for (const [key, releaseId] of this.channels) {
      if (!key.startsWith(`${agentId}\u0000`)) continue;
      const release = this.releases.find((candidate) => candidate.id === releaseId);
      if (release) channels.push(getChannelOf(release));
    }
    return channels.sort((a, b) => a.name.localeCompare(b.name));
  }

  async getChannel(agentId: string, name: string): Promise<StoredChannel | undefined> {
    const releaseId = this.channels.get(`${agentId}\u0000${name}`);
    const release = this.releases.find((candidate) => candidate.id === releaseId);
    return release && getChannelOf(structuredClone(release));
  }

  async list(agentId: string, options: { channel?: string; limit?: number } = {}): Promise<StoredRelease[]> {
    return this.releases
      .filter((release) => release.agentId === agentId)
      .filter((release) => options.channel === undefined || release.channel === options.channel)
      .reverse()
      .slice(0, options.limit ?? Number.MAX_SAFE_INTEGER)
      .map((release) => structuredClone(release));
  }

  async get(id: string): Promise<StoredRelease | undefined> {
    const release = this.releases.find((candidate) => candidate.id === id);
    return release && structuredClone(release);
  }

  async deleteAgent(agentId: string): Promise<void> {
    for (const key of [...this.channels.keys()]) {
      if (key.startsWith(`${agentId}\u0000`)) this.channels.delete(key);
    }
    for (let index = this.releases.length - 1; index >= 0; index -= 1) {
      if (this.releases[index]!.agentId === agentId) this.releases.splice(index, 1);
    }
  }
}
