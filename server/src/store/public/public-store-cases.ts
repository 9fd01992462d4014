import assert from "node:assert/strict";
import { expectStoreError, withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import type { StoredPublicChat } from "./public-chat-store.js";
import type { StoredRating } from "./run-rating-store.js";

const chat = (agentId: string, extra: Partial<StoredPublicChat> = {}): StoredPublicChat => ({
  agentId,
  publicId: `pub_${agentId}`,
  keyId: `key${agentId}`,
  publishableKey: `wpk_key${agentId}_secret`,
  visitorSecret: "c2VjcmV0",
  settings: { enabled: true, title: `Chat ${agentId}`, allowedOrigins: [], showSteps: "names" },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  updatedBy: "ops",
  ...extra,
});

const rating = (runId: string, value: "up" | "down", extra: Partial<StoredRating> = {}): StoredRating => ({
  runId,
  agentId: "triage",
  sessionId: "ses_1",
  rating: value,
  comment: null,
  createdAt: "2026-01-02T00:00:00.000Z",
  ...extra,
});

/** Public chats, their visitors' sessions and ratings of runs (issue 33), in every store. */
export const publicStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "public chats: one per agent, found by public id and key id; a new key replaces the old at once",
    run: (make) =>
      withStore(make, async (store) => {
        const chats = store.publicChat.chats;
        assert.equal(await chats.get("triage"), undefined);
        const first = chat("triage", {
          settings: {
            enabled: true,
            title: "Support",
            welcome: "Hi",
            starters: ["Where is my order?"],
            allowedOrigins: ["https://shop.example.com"],
            showSteps: "full",
            rateLimit: "5/min",
            maxTurns: 3,
            theme: { accent: "#2563eb" },
          },
        });
        assert.deepEqual(await chats.put(first), first);
        await chats.put(chat("other"));
        assert.deepEqual(await chats.getByPublicId("pub_triage"), first);
        assert.deepEqual(await chats.getByKeyId("keytriage"), first);
        const rotated = {
          ...first,
          keyId: "keynew",
          publishableKey: "wpk_keynew_secret",
          createdAt: "2026-03-01T00:00:00.000Z",
          updatedAt: "2026-03-01T00:00:00.000Z",
        };
        const saved = await chats.put(rotated);
        assert.equal(saved.createdAt, first.createdAt, "the first put's createdAt stays");
        assert.equal(saved.updatedAt, rotated.updatedAt);
        assert.equal(await chats.getByKeyId("keytriage"), undefined);
        assert.equal((await chats.getByKeyId("keynew"))?.agentId, "triage");
        assert.equal((await chats.get("other"))?.publicId, "pub_other");
        assert.equal(await chats.delete("other"), true);
        assert.equal(await chats.delete("other"), false);
        assert.equal(await chats.getByPublicId("pub_other"), undefined);
      }),
  },
  {
    name: "visitor sessions: each session has one owner; a visitor's own are listed newest first",
    run: (make) =>
      withStore(make, async (store) => {
        const visitors = store.publicChat.visitors;
        const session = (sessionId: string, visitorId: string, publicId = "pub_triage") => ({
          sessionId,
          publicId,
          agentId: "triage",
          visitorId,
          createdAt: "2026-01-01T00:00:00.000Z",
        });
        await visitors.add(session("ses_a1", "alice"));
        await visitors.add(session("ses_b1", "bob"));
        await visitors.add(session("ses_a2", "alice"));
        await visitors.add(session("ses_x1", "alice", "pub_other"));
        await expectStoreError(visitors.add(session("ses_a1", "bob")), "conflict");
        assert.deepEqual(await visitors.get("ses_a1"), session("ses_a1", "alice"));
        assert.equal(await visitors.get("ses_none"), undefined);
        const ids = async (visitorId: string, limit?: number) =>
          (
            await visitors.list({
              publicId: "pub_triage",
              visitorId,
              ...(limit === undefined ? {} : { limit }),
            })
          ).map((entry) => entry.sessionId);
        assert.deepEqual(await ids("alice"), ["ses_a2", "ses_a1"]);
        assert.deepEqual(await ids("alice", 1), ["ses_a2"]);
        assert.deepEqual(await ids("bob"), ["ses_b1"]);
        assert.deepEqual(await ids("carol"), []);
      }),
  },
  {
    name: "ratings: one per run (a new one replaces it), read in bulk, counted per agent, and runs listed by rating",
    run: (make) =>
      withStore(make, async (store) => {
        const ratings = store.publicChat.ratings;
        const base = { agentId: "triage", agentVersion: 1, query: "q", status: "finished" as const };
        for (const id of ["run_1", "run_2", "run_4"]) await store.createRun({ ...base, id });
        await store.createRun({ ...base, id: "run_3", agentId: "other" });
        await ratings.put(rating("run_1", "up"));
        await ratings.put(rating("run_2", "down", { comment: "Wrong order number" }));
        await ratings.put(rating("run_3", "up", { agentId: "other", sessionId: null }));
        const changed = await ratings.put(
          rating("run_1", "down", { comment: "Changed my mind", createdAt: "2026-01-03T00:00:00.000Z" }),
        );
        assert.deepEqual(changed, {
          ...rating("run_1", "down"),
          comment: "Changed my mind",
          createdAt: "2026-01-03T00:00:00.000Z",
        });
        assert.deepEqual(await ratings.get("run_1"), changed);
        assert.equal(await ratings.get("run_4"), undefined);
        const many = await ratings.getMany(["run_2", "run_3", "run_4", "run_none"]);
        assert.deepEqual([...many.keys()].sort(), ["run_2", "run_3"]);
        assert.equal(many.get("run_2")?.comment, "Wrong order number");
        assert.equal(many.get("run_3")?.sessionId, null);
        assert.deepEqual((await ratings.getMany([])).size, 0);
        const counts = (await ratings.countByAgent())
          .map(({ agentId, rating: value, count }) => `${agentId}:${value}:${count}`)
          .sort();
        assert.deepEqual(counts, ["other:up:1", "triage:down:2"]);
        const listed = async (value: "up" | "down", agentId?: string) =>
          (await store.listRuns({ rating: value, ...(agentId ? { agentId } : {}) })).map((run) => run.id);
        assert.deepEqual(await listed("down"), ["run_2", "run_1"]);
        assert.deepEqual(await listed("up"), ["run_3"]);
        assert.deepEqual(await listed("up", "triage"), []);
      }),
  },
];
