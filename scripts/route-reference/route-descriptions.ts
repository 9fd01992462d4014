/**
 * One line per route of the server's permission table (server/src/access/route-permissions.ts), keyed
 * `METHOD path` exactly as the table writes them. `npm run docs:routes` puts them beside each route in
 * docs/reference/rest-routes.md; a route of the table without a line here fails the reference's test.
 */
export const ROUTE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // server and tools
  "GET /api/health":
    "`{ok, version, offline, authRequired, cliPath?}` (`cliPath`: the CLI script's absolute path, to a signed-in caller); with PostgreSQL or Redis also `parts`, and 503 with `ok: false` while one is down",
  "GET /api/tools": "`{tools: [...]}`: the registered module tools with their JSON Schemas",
  "GET /api/schema/agent-spec.json": "the JSON Schema of `AgentSpec`",
  "GET /api/mcp/servers":
    "the MCP servers of `WADDLE_MCP_SERVERS`: `status` (`connected`, `error` with the reason, `idle`), their tools and schemas",
  "POST /api/tools/test":
    "call one tool as a run would: `{agentId, agentVersion?, tool, args, confirm?}` or `{spec, tool, args, confirm?}` → `{ok, result | error, latencyMs, attempts, prompt?}`",
  "POST /api/guards/check":
    "run one guard check on a sample text: `{check, text, agentId?}` (text up to 1,000,000 characters; an `llm` check asks its own model, else the agent's, else the offline model) → `{verdict, findings, redacted?, message?, durationMs}`",
  // access
  "GET /api/me": "who is signed in: `{name, role, agents, kind, canDecide, permissions}`",
  "GET /api/keys": "`{keys: [...]}`: every API key, never its secret or hash",
  "POST /api/keys":
    "`{name, role, agents?, expiresAt?, canDecide?, rateLimit?}` → 201 `{id, key}` (the key is shown this once)",
  "DELETE /api/keys/:id": "revoke a key: 204",
  "GET /api/audit": "`?since=&actor=&action=&limit=`: the audit log, newest first",
  // A2A card
  "POST /api/a2a/card":
    "`{url}` → `{card: {name, description, skills, streaming}}`, read through the http allow-list; 422 with `details.reason`",
  // agents
  "GET /api/agents": "`{agents: [{id, name, version, updatedAt, description?, toolCount?}]}`",
  "POST /api/agents":
    "a spec → 201 `{id, version}`; `?allowInvalid=true` saves a spec with errors as a version marked `invalid`",
  "POST /api/agents/validate": "a spec → `{ok, issues}`: the spec's own checks and this server's settings",
  "POST /api/agents/server-check":
    "a spec → `{ok, issues}`: only the checks that need this server (allow-lists, secrets, keys, MCP servers, saved agents)",
  "POST /api/agents/import": "a spec or a PenguiFlow `planning_hints` dict → `{spec, issues}`",
  "GET /api/agents/:id": "`{id, version, spec, updatedAt, …}`: the latest version",
  "PUT /api/agents/:id":
    "`{spec, baseVersion, message?, allowInvalid?}` → `{id, version}`; 409 when `baseVersion` is not the latest",
  "DELETE /api/agents/:id":
    "delete the agent and its draft: 204; 409 `agent_has_releases` unless `?force=true` while it has channels",
  "GET /api/agents/:id/versions": "`{versions: [...]}`: every saved version",
  "GET /api/agents/:id/versions/:version": "one saved version with its spec",
  "GET /api/agents/:id/export":
    "`?format=json|ts|ts-project|penguiflow`: the spec, TypeScript, or a zip; 400 naming the formats otherwise",
  "GET /api/agents/:id/draft": "the unsaved edits kept for the agent; 404 when it has none",
  "PUT /api/agents/:id/draft": "keep unsaved edits as the agent's draft",
  "DELETE /api/agents/:id/draft": "drop the draft: 204",
  "GET /api/agents/:id/channels":
    "the agent's channels: `{channels: [{name, version, releasedAt, releasedBy, notes, testRunId}]}`",
  "GET /api/agents/:id/releases": "release history, newest first (`?channel=` for one channel)",
  "POST /api/agents/:id/releases":
    "point a channel at a version after the test gate (`shadowReportId` attaches a report of that version): 201 the release; 409 `tests_failed`, `channel_moved`; 422 `shadow_report_mismatch`",
  "POST /api/agents/:id/channels/:channel/rollback":
    "point the channel back at its previous release: 201; 409 `no_previous_release`",
  "GET /api/agents/:id/diff": "structural diff of two versions or channels (`?from=&to=`)",
  // public chat (issue 33)
  "GET /api/agents/:id/public":
    "the agent's public chat: its settings, `publicId` and `publishableKey` (`wpk_…`); 404 `public_chat_not_configured` before the first PUT",
  "PUT /api/agents/:id/public":
    "`{enabled, channel?, title, welcome?, starters?, allowedOrigins, allowAnyOrigin?, showSteps, rateLimit?, chatRateLimit?, maxTurns?, theme?}` → the chat (made with its `publicId` and key on the first PUT); 400 naming an `allowedOrigins` entry that is not an origin, or `*` without `allowAnyOrigin: true`",
  "POST /api/agents/:id/public/rotate-key": "a new publishable key; the old one is refused at once: the chat",
  "POST /api/agents/:id/shadow":
    "`{candidate, baseline?, limit?}`: replay the baseline channel's recent runs against the candidate, tools answered from recordings only: 201 the stored report (200 with zero cases and a note when nothing was served)",
  "GET /api/agents/:id/shadow": "the agent's shadow reports, newest first, without their cases",
  "GET /api/agents/:id/shadow/:reportId": "one shadow report with its cases",
  // triggers (issue 34)
  "GET /api/agents/:id/triggers":
    "`{triggers: [...]}`: each schedule with its next five `nextFires` (none while disabled), each webhook with its `hookPath`; never a secret",
  "POST /api/agents/:id/triggers":
    "`{kind: schedule, cron, timezone, query, context?, channel?, overlap: skip|queue|allow, catchUp: none|last}` or `{kind: webhook, query, context?, channel?, secretMode: hmac|bearer, idempotencyField?}` (both with `enabled?`, `name?`) → 201 `{trigger, secret?}`: a webhook's secret is shown this once; 400 naming `cron` or `timezone` when either does not parse, or a schedule fires more often than every 10 s",
  "PATCH /api/agents/:id/triggers/:triggerId":
    "any field but `kind` (`enabled` too; `null` clears `channel` and `idempotencyField`) → `{trigger}`; a field of the other kind is 400",
  "DELETE /api/agents/:id/triggers/:triggerId": "delete it, with its fires: 204",
  "GET /api/agents/:id/triggers/:triggerId/fires":
    "`?limit=` (1–200, default 50) → `{fires: [{id, firedAt, status: started|skipped|queued|failed, runId, runStatus, error}]}`, newest first (`channel_not_found`, `skipped_overlap`…)",
  // tests
  "GET /api/agents/:id/tests": "the agent's test suite; `?download=1` as `<agent>.tests.json`",
  "PUT /api/agents/:id/tests": "replace the whole suite (a malformed one is 400 with the JSON path)",
  "POST /api/agents/:id/tests": "`{fromRunId}` → 201 the test case made from that run",
  "DELETE /api/agents/:id/tests/:caseId": "remove one case: 204",
  "GET /api/agents/:id/test-runs": "the agent's test runs",
  "POST /api/agents/:id/test-runs":
    "`{agentVersion?, caseIds?, concurrency?}` → 202 `{testRunId}`: run the suite",
  "GET /api/test-runs/:id":
    "`{status, agentVersion, totals, cases: [{caseId, runId, status, failures, llmCalls, tokens, costUsd, durationMs}]}`",
  "POST /api/test-runs/:id/cancel": "cancel a test run and its runs",
  // runs
  "GET /api/runs":
    "`?agentId=&status=finished,failed&limit=N&purpose=run|test|all&channel=&rating=up|down`: runs, newest first (default 100, at most 1,000), each with its visitor's `rating` when rated",
  "POST /api/runs":
    "`{agentId, query, toolContext?, agentVersion?, offline?}` → 202 `{runId}`; with `sessionId`, a turn of that session (→ `{runId, sessionId, turn}`)",
  "GET /api/runs/:id":
    "the run: `{id, agentId, agentVersion, status, query, result, usage, steps, durationMs, …}`",
  "GET /api/runs/:id/events": "`?after=N&limit=`: `{events: [RunEvent…]}` with `seq > N`",
  "POST /api/runs/:id/cancel": "cancel: `{runId, status}`",
  "POST /api/runs/:id/fork":
    "`{fromStep, edit?, agentVersion?, reuse?}` → 202 `{runId}`: run again from a step",
  "POST /api/runs/:id/resume":
    "answer a pause: `{resumeToken, decision: approve|reject|edit, args?, userInput?, toolContext?}` → 202 `{runId}`",
  // sessions
  "GET /api/sessions": "`?agentId=&limit=`: sessions by latest activity",
  "POST /api/sessions": "`{agentId, agentVersion?, title?}` → 201 `{sessionId}`",
  "GET /api/sessions/:id": "`{id, agentId, agentVersion, title, status, turns, tasks, …}`",
  "DELETE /api/sessions/:id":
    "close: a running turn and the background tasks are cancelled, every run is kept",
  "GET /api/sessions/:id/events": "`?after=N&limit=`: the session's own log",
  "POST /api/sessions/:id/turns":
    "`{query, context?}` → 202 `{runId, sessionId, turn}`; 409 `turn_in_progress` or `session_closed`",
  "POST /api/sessions/:id/merges/:mergeId":
    "`{decision: approve|reject, note?}` → 202: decide held task results, once (409 `already_answered`)",
  "POST /api/sessions/:id/tasks/:taskId/cancel":
    "cancel one background task: 202; 409 `task_ended` once it ended",
  // the approvals inbox (decided through the resume and merge routes)
  "GET /api/inbox":
    "`?agentId=&kind=pause|merge&assignee=<name>|none&state=open|snoozed|all&cursor=&limit=` → `{items, nextCursor, openCount}`: every pause and held merge the key's agents wait on, newest first (default `state=open`)",
  "POST /api/inbox/:itemId/assign": "`{assignee: name | null}` → `{item}`; 404 when nothing waits there",
  "POST /api/inbox/:itemId/snooze":
    "`{until: ISO time in the future | null}` → `{item}`: hidden from `open` until then; 404 when nothing waits there",
  // credentials and allow-lists
  "GET /api/credentials":
    "`{credentials: [{name, kind, last4, updatedAt, source, baseUrl?, models?, shadowed?}]}`, never a value",
  "POST /api/credentials/check":
    "`{spec}` → what Run would meet: `{model, usable, offlineByChoice, llm: [...], hosts: [...]}`",
  "POST /api/credentials/:name/test":
    "`{baseUrl?, model?}` → try an LLM key: `{ok: true, via: models|completion, models}` or `{ok: false, code, message}`",
  "PUT /api/credentials/:name":
    "`{kind: llm|secret, value, baseUrl?, models?}` → the entry; 409 for a name the environment holds",
  "DELETE /api/credentials/:name": "204; 404 when none is stored",
  "GET /api/allowlist":
    "`{http: [{entry, source}], llm: [...]}`: the environment's entries and the stored ones",
  "PUT /api/allowlist": "`{http: [...], llm: [...]}`: replace the stored entries",
  "POST /api/allowlist/check": "`{urls: [...]}` → `{http: [{url, allowed}]}`",
  // notifications (issue 34)
  "GET /api/webhooks":
    "`{webhooks: [...]}`: every outgoing webhook (a key limited to some agents: those limited to them), never a secret",
  "POST /api/webhooks":
    "`{url, events, agents?, format?: json|slack, secret?, enabled?}` → 201 `{webhook, secret}`: the secret (generated when left out) is shown this once; a host off the HTTP allow-list is 400 naming `url`",
  "GET /api/webhooks/:id": "one webhook",
  "PATCH /api/webhooks/:id": "any of the create fields (a new `secret` replaces the old) → the webhook",
  "DELETE /api/webhooks/:id": "delete it, with its outbox and attempts: 204",
  "POST /api/webhooks/:id/test":
    "send a test notification (its first event type, `data.test: true`) through the outbox → `{delivery}`: the first attempt's status, response code and latency; retries follow as for any notification",
  "GET /api/webhooks/:id/deliveries":
    "`?limit=` (1–500, default 100) → `{deliveries: [{notificationId, type, attempt, attemptedAt, status: delivered|retrying|failed, responseCode, latencyMs, error, nextAttemptAt}]}`, newest first",
  // /v1
  "GET /v1/models": "the agents as models (model id = agent id)",
  "GET /v1/models/:model": "one agent as a model",
  "POST /v1/chat/completions": "run the agent on the last user message, streamed or whole, in OpenAI's shape",
  "POST /v1/responses": "the Responses API over sessions: a response is a turn",
  "GET /v1/responses/:id": "one response (a turn's run)",
  // /mcp
  "POST /mcp": "MCP Streamable HTTP: JSON-RPC messages (`tools/list`, `tools/call`, …); each agent is a tool",
  "DELETE /mcp": "MCP Streamable HTTP: end a session",
  "GET /mcp": "MCP Streamable HTTP: the server-to-client stream",
  // metrics and A2A
  "GET /metrics": "Prometheus text format",
  "GET /a2a/:id/.well-known/agent-card.json": "the agent's A2A Agent Card (no key needed)",
  "POST /a2a/:id":
    "A2A JSON-RPC: `message/send`, `message/stream`, `tasks/get`, `tasks/cancel` (v0.3), `SendMessage`, `ListTasks`, … (v1.0)",
  "ALL /a2a/*": "any other path under `/a2a/`: answered by the A2A endpoint itself",
  // AG-UI
  "POST /agui/:id":
    "AG-UI `RunAgentInput` → AG-UI events (SSE, or protobuf per `Accept`): a turn of the thread's session; a pause ends in an interrupt that the next run's `resume` answers (`runs:decide`); `:id` may be `agent@channel` or `agent@7`",
  // a public chat's visitors: `x-waddle-public-key` on every route, `Authorization: Bearer <visitorToken>` on a session's
  "GET /public/:publicId/config":
    "what the page shows first: `{title, welcome, starters, theme, showSteps, maxTurns, maxMessageChars}`; the one public route that needs no key (the embed's check), though a key sent must be current",
  "POST /public/:publicId/sessions":
    "a new conversation → 201 `{sessionId, visitorToken}` (the first mints the visitor; with a valid token, the same visitor); 429 with `Retry-After`",
  "GET /public/:publicId/sessions/:id":
    "the visitor's own transcript: `{sessionId, turns: [{runId, turn, query, status, answer, waitingFor, steps, rating}], turnsLeft}`; another visitor's session is 404",
  "POST /public/:publicId/sessions/:id/turns":
    "`{query}` → the answer as server-sent events (`turn_started`, `delta`, `step`, `waiting`, `resumed`, `answer`, `error`, `done`); 413 past `maxMessageChars`, 409 `session_full`, 429 with `Retry-After`",
  "GET /public/:publicId/sessions/:id/stream":
    "follow the conversation's last turn from its start (after a reload), as `…/turns` streams it",
  "GET /chat/:publicId":
    "the hosted chat page (HTML, no credential): its `Content-Security-Policy: frame-ancestors` lists the chat's allowed origins (and this server); 404 for an unknown or disabled chat",
  "GET /embed.js":
    'the embed script: `<script src=".../embed.js" data-public-id=… async>` adds a chat button that opens the hosted page (cached 5 minutes, revalidated by ETag)',
  "POST /public/:publicId/sessions/:id/feedback":
    "`{runId, rating: up|down, comment?}` → 204: the visitor's rating of an answer (a new one replaces it)",
  // webhook triggers (issue 34)
  "POST /hooks/:triggerId":
    "a webhook trigger's delivery, authorized by its secret alone (`Waddle-Signature: t=…,v1=…` over `<t>.<raw body>` within ±5 minutes, or `Authorization: Bearer`): 202 `{runId}`, or with `?wait=S` (≤ 60) 200 `{runId, status, answer?}` once the run ends in time; `Idempotency-Key` (or the trigger's `idempotencyField`) answers a redelivery with the first run and `duplicate: true`; 401 one body for every refusal, 404 unknown or disabled, 413 over 1 MB, 422 `missing_fields` naming what the query reads and the JSON lacks",
  // the designer
  "GET *": "the designer's page and assets (or a page saying how to build it)",
};

/** Sections of the reference, in order: the first whose test a route's path passes holds it. */
export const ROUTE_SECTIONS: readonly { title: string; test: (path: string) => boolean }[] = [
  {
    title: "Server and tools",
    test: (path) => /^\/api\/(health|tools|guards|schema|mcp)(\/|$)/.test(path),
  },
  { title: "Access", test: (path) => /^\/api\/(me|keys|audit)(\/|$)/.test(path) },
  { title: "Tests", test: (path) => /^\/api\/(agents\/:id\/(tests|test-runs)|test-runs)(\/|$)/.test(path) },
  {
    title: "Public chat",
    test: (path) =>
      /^\/api\/agents\/:id\/public(\/|$)/.test(path) ||
      /^\/(public|chat)\//.test(path) ||
      path === "/embed.js",
  },
  {
    title: "Triggers",
    test: (path) => /^\/api\/agents\/:id\/triggers(\/|$)/.test(path) || path.startsWith("/hooks/"),
  },
  { title: "Agents", test: (path) => /^\/api\/agents(\/|$)/.test(path) },
  { title: "Runs", test: (path) => /^\/api\/runs(\/|$)/.test(path) },
  { title: "Sessions", test: (path) => /^\/api\/sessions(\/|$)/.test(path) },
  { title: "Approvals inbox", test: (path) => /^\/api\/inbox(\/|$)/.test(path) },
  {
    title: "Credentials and allow-lists",
    test: (path) => /^\/api\/(credentials|allowlist)(\/|$)/.test(path),
  },
  { title: "Notifications", test: (path) => /^\/api\/webhooks(\/|$)/.test(path) },
  { title: "OpenAI-compatible (`/v1`)", test: (path) => path.startsWith("/v1/") },
  { title: "MCP server (`/mcp`)", test: (path) => path === "/mcp" },
  { title: "A2A", test: (path) => path.startsWith("/a2a/") || path === "/api/a2a/card" },
  { title: "AG-UI", test: (path) => path.startsWith("/agui/") },
  { title: "Metrics", test: (path) => path === "/metrics" },
  { title: "The designer", test: (path) => path === "*" },
];
