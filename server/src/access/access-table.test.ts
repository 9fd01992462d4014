import { AgentSpec } from "@waddle/protocol";
import { request as httpRequest } from "node:http";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import type { Role } from "./actor.js";
import { listAppRoutes } from "./list-app-routes.js";
import { can, type Permission } from "./permissions.js";
import { isPublicChatAccess, matchRoute, ROUTE_RULES, SOCKET_RULES } from "./route-permissions.js";

const TOKEN = "bootstrap-token-for-the-access-table";
let server: TestServer;
const admin = { authorization: `Bearer ${TOKEN}` };
const spec = (id: string) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: `Agent ${id}`,
    tools: [{ name: "lookup", desc: "Looks a record up.", impl: { kind: "mock", output: { found: true } } }],
  });

interface Subject {
  label: string;
  role: Role;
  canDecide: boolean;
  key: string;
}
const subjects: Subject[] = [];
const ids = { alpha: {} as Record<string, string>, beta: {} as Record<string, string> };

async function createKey(body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const created = await server.request("/api/keys", { method: "POST", headers: admin, json: body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  // Runs (the turns and responses of the session surfaces) answer on the embedded offline model.
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  for (const agent of ["alpha", "beta"] as const) {
    await server.store.createAgent({ spec: spec(agent) });
    const runId = `run_${agent}1`;
    await server.store.createRun({
      id: runId,
      agentId: agent,
      agentVersion: 1,
      query: "q",
      status: "finished",
    });
    const session = await server.store.sessions.create({
      id: `ses_${agent}1`,
      agentId: agent,
      agentVersion: 1,
    });
    await server.store.tests.saveTestRun({
      id: `tr_${agent}1`,
      agentId: agent,
      agentVersion: 1,
      status: "passed",
      totals: { passed: 0, failed: 0, skipped: 0 },
      cases: [],
      createdAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    });
    ids[agent] = { run: runId, session: session.id, testRun: `tr_${agent}1`, agent };
  }
  for (const [role, canDecide] of [
    ["viewer", false],
    ["runner", false],
    ["runner", true],
    ["editor", false],
    ["admin", false],
  ] as const) {
    const { key } = await createKey({
      name: `${role}${canDecide ? "+decide" : ""}`,
      role,
      agents: ["alpha"],
      canDecide,
    });
    subjects.push({ label: `${role}${canDecide ? "+decide" : ""}`, role, canDecide, key });
  }
});
afterAll(() => server.stop());

/** A concrete URL and body for a route pattern, for the agent `agent` (in or out of the keys' scope). */
function instantiate(path: string, agent: "alpha" | "beta"): { url: string; body: unknown } {
  const own = ids[agent];
  const id =
    path.startsWith("/api/runs") || path.startsWith("/v1/responses")
      ? own["run"]!
      : path.startsWith("/api/sessions")
        ? own["session"]!
        : path.startsWith("/api/test-runs")
          ? own["testRun"]!
          : path.startsWith("/api/keys")
            ? "nokey00000000"
            : path.startsWith("/api/credentials")
              ? "NO_SUCH_CREDENTIAL"
              : agent;
  const url = path
    .replace(":id", id)
    .replace(":model", agent)
    .replace(":version", "1")
    .replace(":name", id)
    .replace(":mergeId", "merge_none")
    .replace(":taskId", "task_none")
    .replace(":channel", "staging")
    .replace(":triggerId", "trg_none")
    .replace("*", "anything");
  // A body that names the agent and is otherwise incomplete: the guard decides, then validation says 400.
  return { url, body: { agentId: agent, model: agent, id: agent } };
}

type Agent = "alpha" | "beta";
let sessionCount = 0;

/** A fresh session of `agent` (no row's turn or decision is refused for another's), holding what it asks. */
async function newSession(agent: Agent, holds: "merge" | "task" | "turn" | "nothing" = "nothing") {
  const id = `ses_${agent}named${(sessionCount += 1)}`;
  await server.store.sessions.create({ id, agentId: agent, agentVersion: 1 });
  const runId = `run_${id.slice(4)}`;
  if (holds === "turn") {
    await server.store.sessions.update(id, () => ({
      events: [
        { type: "turn_started", data: { runId, turn: 1, query: "q" } },
        { type: "turn_ended", data: { runId, turn: 1, status: "finished", answer: "a" } },
      ],
      result: undefined,
    }));
    await server.store.createRun({
      id: runId,
      agentId: agent,
      agentVersion: 1,
      query: "q",
      status: "finished",
      origin: { sessionId: id, turn: 1 },
    });
  }
  if (holds === "merge" || holds === "task") {
    const task = { taskId: "task_1", runId, name: "research" };
    await server.store.sessions.update(id, () => ({
      events: [
        holds === "merge"
          ? {
              type: "merge_pending",
              data: {
                mergeId: "merge_1",
                name: "research",
                strategy: "HUMAN_GATED",
                tasks: [{ ...task, status: "completed", result: "x" }],
              },
            }
          : {
              type: "task_spawned",
              // A task still queued for a slot (its run never started): a cancel ends it at once.
              data: { ...task, parentRunId: "run_parent", mode: "tool", mergeStrategy: "APPEND" },
            },
      ],
      result: undefined,
    }));
  }
  return { id, runId };
}

interface SessionSurface {
  label: string;
  access: Permission;
  /** What the route answers a key whose agents include the session's. */
  inScope: number;
  /**
   * The request on a session of `sessionOf`. Where the request can also name an agent, it names the key's
   * own (alpha): a session of another agent must not ride in on it.
   */
  send(sessionOf: Agent, key: string): Promise<{ status: number; body: unknown; text: string }>;
}

const QUERY = "Where is my refund?";
const post = (key: string, url: string, json: unknown, headers: Record<string, string> = {}) =>
  server.request(url, { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, json });

/** Every surface that names a session instead of (or besides) an agent (issue 30). */
const SESSION_SURFACES: SessionSurface[] = [
  {
    label: "POST /api/runs {sessionId, query} (a turn, the alias)",
    access: "runs:start",
    inScope: 202,
    send: async (agent, key) =>
      post(key, "/api/runs", { sessionId: (await newSession(agent)).id, query: QUERY }),
  },
  {
    label: "POST /api/runs {sessionId, agentId, query}",
    access: "runs:start",
    inScope: 202,
    send: async (agent, key) =>
      post(key, "/api/runs", { sessionId: (await newSession(agent)).id, agentId: "alpha", query: QUERY }),
  },
  {
    label: "POST /api/sessions/:id/turns",
    access: "runs:start",
    inScope: 202,
    send: async (agent, key) =>
      post(key, `/api/sessions/${(await newSession(agent)).id}/turns`, { query: QUERY }),
  },
  {
    label: "POST /api/sessions/:id/merges/:mergeId",
    access: "runs:decide",
    inScope: 202,
    send: async (agent, key) =>
      post(key, `/api/sessions/${(await newSession(agent, "merge")).id}/merges/merge_1`, {
        decision: "approve",
      }),
  },
  {
    label: "POST /api/sessions/:id/tasks/:taskId/cancel",
    access: "runs:cancel",
    inScope: 202,
    send: async (agent, key) =>
      post(key, `/api/sessions/${(await newSession(agent, "task")).id}/tasks/task_1/cancel`, {}),
  },
  {
    label: "POST /v1/responses {conversation}",
    access: "runs:start",
    inScope: 200,
    send: async (agent, key) =>
      post(key, "/v1/responses", {
        model: "alpha",
        input: QUERY,
        conversation: (await newSession(agent)).id,
      }),
  },
  {
    label: "POST /v1/responses {previous_response_id}",
    access: "runs:start",
    inScope: 200,
    send: async (agent, key) =>
      post(key, "/v1/responses", {
        model: "alpha",
        input: QUERY,
        previous_response_id: (await newSession(agent, "turn")).runId,
      }),
  },
  {
    label: "POST /v1/chat/completions with x-waddle-session-id",
    access: "runs:start",
    inScope: 200,
    send: async (agent, key) =>
      post(
        key,
        "/v1/chat/completions",
        { model: "alpha", messages: [{ role: "user", content: QUERY }] },
        { "x-waddle-session-id": (await newSession(agent)).id },
      ),
  },
  {
    label: "POST /agui/:id with a session id as threadId",
    access: "runs:start",
    inScope: 200,
    send: async (agent, key) =>
      post(key, "/agui/alpha", {
        threadId: (await newSession(agent)).id,
        runId: "agui-run-1",
        messages: [{ id: "m1", role: "user", content: QUERY }],
      }),
  },
];

// Before the table below, whose last rows delete the agents.
describe("surfaces that name a session instead of an agent (issue 30)", () => {
  it("are in scope for a key whose agents include the session's, and 404 for any other", async () => {
    const failures: string[] = [];
    for (const surface of SESSION_SURFACES) {
      for (const subject of subjects) {
        const actor = { kind: "key", name: "", keyId: "", role: subject.role, agents: ["alpha"] } as const;
        for (const agent of ["alpha", "beta"] as const) {
          const expected = !can({ ...actor, canDecide: subject.canDecide }, surface.access)
            ? 403
            : agent === "alpha"
              ? surface.inScope
              : 404;
          const response = await surface.send(agent, subject.key);
          if (response.status !== expected) {
            failures.push(
              `${surface.label} on a session of ${agent} as ${subject.label}: ${response.status} ${response.text.slice(0, 160)}, expected ${expected}`,
            );
          }
          // Out of scope, nothing names the other agent: the same answer as for a session that does not exist.
          if (expected === 404 && /\bbeta\b/.test(response.text)) {
            failures.push(`${surface.label} as ${subject.label} names the other agent: ${response.text}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("has a rule for each, scoped by the session", () => {
    expect(matchRoute("POST", "/api/sessions/ses_x/turns")?.rule).toMatchObject({
      access: "runs:start",
      scope: "session",
    });
  });
});

/** The status of a request sent from `localAddress` (a loopback address of its own). */
function requestFrom(
  localAddress: string,
  options: { method: string; path: string; headers: Record<string, string>; json?: unknown },
): Promise<number> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: new URL(server.url).port,
        localAddress,
        method: options.method,
        path: options.path,
        headers: {
          ...options.headers,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Pages that hold no data and check no credential: the designer's, the hosted chat page, embed.js. */
const PAGES_WITHOUT_DATA = ["*", "/chat/:publicId", "/embed.js"];

// Before the table below, whose last rows delete the agents.
describe("a public chat's publishable key and visitor token (issue 33)", () => {
  it("open no route but the chat's own: every other route, public ones too, answers 401, and sockets refuse them", async () => {
    const put = await server.request("/api/agents/alpha/public", {
      method: "PUT",
      headers: admin,
      json: { enabled: true, title: "Alpha", allowedOrigins: [], showSteps: "names" },
    });
    expect(put.status, put.text).toBe(200);
    const { publicId, publishableKey } = put.body as { publicId: string; publishableKey: string };
    const created = await server.request(`/public/${publicId}/sessions`, {
      method: "POST",
      headers: { "x-waddle-public-key": publishableKey },
    });
    expect(created.status, created.text).toBe(201);
    const { sessionId, visitorToken } = created.body as { sessionId: string; visitorToken: string };
    const failures: string[] = [];
    let sent = 0;
    // Every route but the chat's own and the pages (which hold no data and check nothing), and webhook
    // deliveries, which check their trigger's secret only (see their own test below).
    const routes = listAppRoutes(server.app).filter(
      (route) =>
        !route.path.startsWith("/public/") &&
        !PAGES_WITHOUT_DATA.includes(route.path) &&
        !route.path.startsWith("/hooks/"),
    );
    for (const route of routes) {
      const { url, body } = instantiate(route.path, "alpha");
      for (const [label, bearer] of [
        ["publishable key", publishableKey],
        ["visitor token", visitorToken],
      ] as const) {
        // Each from its own loopback address: every 401 counts as a failed sign-in of its address.
        const status = await requestFrom(`127.0.${1 + Math.floor(sent / 200)}.${1 + (sent++ % 200)}`, {
          method: route.method === "ALL" ? "POST" : route.method,
          path: url,
          headers: { authorization: `Bearer ${bearer}`, "x-waddle-public-key": publishableKey },
          ...(route.method === "GET" || route.method === "DELETE" ? {} : { json: body }),
        });
        // AG-UI takes a publishable key for its own agent (issue 33, item 6): refused for any other below.
        const aguiOwn = route.path === "/agui/:id" && label === "publishable key";
        if (aguiOwn ? status === 401 || status === 403 : status !== 401)
          failures.push(`${route.method} ${url} with a ${label}: ${status}`);
      }
    }
    expect(failures).toEqual([]);
    const otherAgent = await requestFrom("127.0.9.1", {
      method: "POST",
      path: "/agui/beta",
      headers: { authorization: `Bearer ${publishableKey}` },
      json: {},
    });
    expect(otherAgent).toBe(404);
    for (const token of [publishableKey, visitorToken]) await expect(open(token)).rejects.toThrow();
    // The chat's own routes take them, and only them.
    const transcript = await server.request(`/public/${publicId}/sessions/${sessionId}`, {
      headers: { authorization: `Bearer ${visitorToken}`, "x-waddle-public-key": publishableKey },
    });
    expect(transcript.status, transcript.text).toBe(200);
    const withAdmin = await server.request(`/public/${publicId}/sessions/${sessionId}`, {
      headers: { ...admin, "x-waddle-public-key": publishableKey },
    });
    expect(withAdmin.status).toBe(401);
  });
});

// Before the table below, whose last rows delete the agents.
describe("a webhook trigger's deliveries (issue 34)", () => {
  it("take the trigger's secret and no key or token, and the secret opens no other route", async () => {
    const created = await server.request("/api/agents/alpha/triggers", {
      method: "POST",
      headers: admin,
      json: { kind: "webhook", query: "Look up {{body.id}}", secretMode: "bearer" },
    });
    expect(created.status, created.text).toBe(201);
    const { trigger, secret } = created.body as { trigger: { id: string }; secret: string };
    // Each from its own loopback address: every 401 counts as a failed sign-in of its address.
    const deliver = (host: number, authorization: string) =>
      requestFrom(`127.0.20.${host}`, {
        method: "POST",
        path: `/hooks/${trigger.id}`,
        headers: { authorization },
        json: { id: 7 },
      });
    expect(await deliver(1, `Bearer ${secret}`)).toBe(202);
    // WADDLE_TOKEN and every role's key are refused as a wrong secret is.
    expect(await deliver(2, `Bearer ${TOKEN}`)).toBe(401);
    for (const [index, subject] of subjects.entries()) {
      expect(await deliver(3 + index, `Bearer ${subject.key}`), subject.label).toBe(401);
    }
    const other = { method: "GET", path: "/api/agents", headers: { authorization: `Bearer ${secret}` } };
    expect(await requestFrom("127.0.20.30", other)).toBe(401);
  });
});

describe("the access table", () => {
  it("has a rule for every route the app serves (a new route without one fails here)", () => {
    const routes = listAppRoutes(server.app);
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((route) => {
      const matched = matchRoute(
        route.method === "ALL" ? "GET" : route.method,
        route.path.replace(/\*$/, "x"),
      );
      return !matched || (matched.rule.path !== route.path && matched.rule.path !== "*");
    });
    expect(missing).toEqual([]);
    // The catch-all rule is only for the designer's page (a RegExp route): every named route has its own.
    const unnamed = routes.filter(
      (route) =>
        route.path !== "*" &&
        matchRoute(route.method === "ALL" ? "GET" : route.method, route.path)?.rule.path === "*",
    );
    expect(unnamed).toEqual([]);
  });

  it("answers every route × role × in/out of scope as the table says", async () => {
    const routes = listAppRoutes(server.app)
      .filter((route) => route.path !== "*")
      // Deletes last (agents last of all): they remove what the other rows read.
      .sort(
        (a, b) =>
          Number(a.method === "DELETE") - Number(b.method === "DELETE") ||
          Number(a.path === "/api/agents/:id") - Number(b.path === "/api/agents/:id"),
      );
    const failures: string[] = [];
    for (const route of routes) {
      const rule = matchRoute(route.method, route.path.replace(/:\w+/g, "x"))!.rule;
      for (const subject of subjects) {
        for (const agent of ["alpha", "beta"] as const) {
          const { url, body } = instantiate(route.path, agent);
          const response = await server.request(url, {
            method: route.method,
            headers: { authorization: `Bearer ${subject.key}` },
            ...(route.method === "GET" || route.method === "DELETE" ? {} : { json: body }),
          });
          const actor = {
            kind: "key",
            name: "",
            keyId: "",
            role: subject.role,
            agents: ["alpha"],
            canDecide: subject.canDecide,
          } as const;
          // A public chat's route answers an API key as it answers no credential: 404 (server/src/public).
          const publicChat = isPublicChatAccess(rule.access);
          const allowed =
            rule.access === "public" ||
            rule.access === "signed-in" ||
            (!isPublicChatAccess(rule.access) && can(actor, rule.access));
          const scoped = ["agent", "run", "session", "testRun", "body"].includes(rule.scope);
          let expected: string;
          if (publicChat) expected = "404";
          else if (!allowed) expected = "403";
          else if (agent === "beta" && scoped) expected = "404";
          else expected = "not 401/403";
          const ok =
            expected === "403"
              ? response.status === 403 &&
                (route.path.startsWith("/v1")
                  ? // OpenAI's error shape: {error: {message, type, param, code}}
                    response.body.error.code === "forbidden" &&
                    response.body.error.message.includes(rule.access)
                  : JSON.stringify(response.body).includes(`"permission":"${rule.access}"`))
              : expected === "404"
                ? response.status === 404
                : response.status !== 401 && response.status !== 403;
          if (!ok)
            failures.push(
              `${route.method} ${url} as ${subject.label}: ${response.status}, expected ${expected}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("says in plain rows what each role may do (spot checks independent of the table)", () => {
    const role = (r: Role, canDecide = false) =>
      ({ kind: "key", name: "", keyId: "", role: r, agents: null, canDecide }) as const;
    const need = (method: string, path: string) => matchRoute(method, path)!.rule.access;
    const check = (r: ReturnType<typeof role>, method: string, path: string) => {
      const access = need(method, path);
      return access === "public" || access === "signed-in" || (!isPublicChatAccess(access) && can(r, access));
    };
    expect(check(role("viewer"), "GET", "/api/agents/a")).toBe(true);
    expect(check(role("viewer"), "PUT", "/api/agents/a")).toBe(false);
    expect(check(role("viewer"), "POST", "/api/runs")).toBe(false);
    expect(check(role("runner"), "POST", "/api/runs")).toBe(true);
    expect(check(role("runner"), "POST", "/v1/chat/completions")).toBe(true);
    expect(check(role("runner"), "POST", "/mcp")).toBe(true);
    expect(check(role("runner"), "POST", "/a2a/agents/x")).toBe(true);
    expect(check(role("runner"), "POST", "/agui/x")).toBe(true);
    expect(check(role("viewer"), "POST", "/agui/x@staging")).toBe(false);
    expect(check(role("viewer"), "GET", "/metrics")).toBe(true);
    // the hosted chat page and embed.js: anyone's, as the designer's page is (the chat's gate guards its data)
    expect(matchRoute("GET", "/chat/pub_0a1b")?.rule).toMatchObject({
      path: "/chat/:publicId",
      access: "public",
    });
    expect(matchRoute("GET", "/embed.js")?.rule).toMatchObject({ path: "/embed.js", access: "public" });
    expect(check(role("runner"), "POST", "/api/runs/run_1/resume")).toBe(false);
    expect(check(role("runner", true), "POST", "/api/runs/run_1/resume")).toBe(true);
    expect(check(role("runner", true), "POST", "/api/sessions/ses_1/merges/m1")).toBe(true);
    // The approvals inbox: a viewer reads it; assigning and snoozing are for those who may decide
    expect(check(role("viewer"), "GET", "/api/inbox")).toBe(true);
    expect(check(role("viewer"), "POST", "/api/inbox/pause:run_1/assign")).toBe(false);
    expect(check(role("runner"), "POST", "/api/inbox/pause:run_1/snooze")).toBe(false);
    expect(check(role("runner", true), "POST", "/api/inbox/pause:run_1/assign")).toBe(true);
    expect(check(role("editor"), "POST", "/api/inbox/pause:run_1/snooze")).toBe(true);
    expect(check(role("runner"), "POST", "/api/runs/run_1/cancel")).toBe(false);
    expect(check(role("editor"), "DELETE", "/api/agents/a")).toBe(true);
    // A guard's sample box runs the check as a tool test runs a tool: an editor's (issue 35)
    expect(check(role("runner"), "POST", "/api/guards/check")).toBe(false);
    expect(check(role("editor"), "POST", "/api/guards/check")).toBe(true);
    expect(matchRoute("POST", "/api/guards/check")?.rule).toMatchObject({
      access: "tools:test",
      scope: "body",
    });
    // A shadow comparison calls the candidate's model for every case: an editor's; its reports a viewer's.
    expect(check(role("runner"), "POST", "/api/agents/a/shadow")).toBe(false);
    expect(check(role("editor"), "POST", "/api/agents/a/shadow")).toBe(true);
    expect(check(role("viewer"), "GET", "/api/agents/a/shadow")).toBe(true);
    expect(check(role("viewer"), "GET", "/api/agents/a/shadow/shr_1")).toBe(true);
    expect(check(role("editor"), "GET", "/api/keys")).toBe(false);
    expect(check(role("editor"), "GET", "/api/credentials")).toBe(false);
    expect(check(role("admin"), "GET", "/api/audit")).toBe(true);
    // Notifications: a webhook sends run data out and holds a signing secret, an admin's as credentials are
    expect(check(role("editor"), "GET", "/api/webhooks")).toBe(false);
    expect(check(role("editor"), "POST", "/api/webhooks")).toBe(false);
    expect(check(role("editor"), "GET", "/api/webhooks/whk_1/deliveries")).toBe(false);
    expect(check(role("admin"), "PATCH", "/api/webhooks/whk_1")).toBe(true);
    expect(check(role("admin"), "POST", "/api/webhooks/whk_1/test")).toBe(true);
    expect(check(role("admin"), "DELETE", "/api/webhooks/whk_1")).toBe(true);
    // No API key, not even an admin's, is a public chat's visitor (issue 33)
    expect(check(role("admin"), "POST", "/public/pub_1/sessions")).toBe(false);
    expect(check(role("admin"), "GET", "/public/pub_1/sessions/ses_1")).toBe(false);
    expect(check(role("viewer"), "GET", "/api/agents/a/public")).toBe(true);
    expect(check(role("viewer"), "PUT", "/api/agents/a/public")).toBe(false);
    expect(check(role("editor"), "POST", "/api/agents/a/public/rotate-key")).toBe(true);
    // Triggers start runs on their own: an editor makes them; a viewer reads them and their fires (issue 34)
    expect(check(role("runner"), "POST", "/api/agents/a/triggers")).toBe(false);
    expect(check(role("editor"), "PATCH", "/api/agents/a/triggers/trg_1")).toBe(true);
    expect(check(role("viewer"), "GET", "/api/agents/a/triggers/trg_1/fires")).toBe(true);
    expect(check(role("viewer"), "DELETE", "/api/agents/a/triggers/trg_1")).toBe(false);
    expect(matchRoute("POST", "/hooks/trg_1")?.rule).toMatchObject({ access: "public", scope: "inside" });
    expect(ROUTE_RULES.every((rule) => rule.path === "*" || rule.path.startsWith("/"))).toBe(true);
  });

  it("checks every socket event's permission and scope, and refuses events it has no rule for", async () => {
    expect(Object.keys(SOCKET_RULES).sort()).toEqual(
      [
        "subscribe",
        "unsubscribe",
        "watch_agent",
        "unwatch_agent",
        "subscribe_session",
        "unsubscribe_session",
        "watch_inbox",
        "unwatch_inbox",
      ].sort(),
    );
    for (const subject of subjects) {
      const socket = await open(subject.key);
      try {
        const emit = (event: string, message: unknown) =>
          socket.timeout(5000).emitWithAck(event, message) as Promise<{
            ok: boolean;
            error?: { code: string };
          }>;
        expect((await emit("watch_agent", { agentId: "alpha" })).ok, subject.label).toBe(true);
        expect((await emit("watch_agent", { agentId: "beta" })).error?.code).toBe("not_found");
        expect((await emit("subscribe", { runId: ids.alpha["run"], afterSeq: 0 })).ok).toBe(true);
        expect((await emit("subscribe", { runId: ids.beta["run"], afterSeq: 0 })).error?.code).toBe(
          "not_found",
        );
        expect((await emit("subscribe_session", { sessionId: ids.alpha["session"] })).ok).toBe(true);
        expect((await emit("subscribe_session", { sessionId: ids.beta["session"] })).error?.code).toBe(
          "not_found",
        );
        // The inbox: every role reads it, for its own agents only (the items are filtered for the socket).
        expect((await emit("watch_inbox", {})).ok).toBe(true);
        expect((await emit("watch_inbox", { agentId: "beta" })).error?.code).toBe("not_found");
        expect((await emit("no_such_event", {})).error?.code).toBe("forbidden");
      } finally {
        socket.close();
      }
    }
  });
});

function open(token: string | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.url, {
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      ...(token === undefined ? {} : { auth: { token } }),
    });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}
