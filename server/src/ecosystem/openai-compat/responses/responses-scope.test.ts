import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../testing/start-test-server.js";

/**
 * `previous_response_id`, `conversation` and `x-waddle-session-id` name runs and sessions: a key limited to
 * some agents gets for one of another agent exactly what it gets for an unknown id.
 */
const TOKEN = "bootstrap-token-for-the-responses-scope";
const A = "support-triage";
const B = "writing-review";
const query = "My invoice shows a duplicate charge";
let server: TestServer;
let onlyA: string;
let both: string;

async function createKey(agents: string[]): Promise<string> {
  const created = await server.request("/api/keys", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    json: { name: `runner-${agents.join("-")}`, role: "runner", agents },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.key as string;
}

/** A finished turn of agent B, in its own session, as the admin would have left it. */
const ofB = { run: "run_scopeb0000000001", session: "ses_scopeb0000000001" };

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN });
  await server.store.sessions.create({ id: ofB.session, agentId: B, agentVersion: 1 });
  await server.store.createRun({
    id: ofB.run,
    agentId: B,
    agentVersion: 1,
    query: "q",
    status: "finished",
    origin: { sessionId: ofB.session, turn: 1 },
  });
  onlyA = await createKey([A]);
  both = await createKey([A, B]);
});
afterAll(() => server.stop());

/** POST /v1/responses with a key; the raw answer, to compare bodies byte for byte. */
async function respond(key: string, body: Record<string, unknown>) {
  return server.request("/v1/responses", {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    json: { model: A, input: query, ...body },
  });
}

describe("/v1/responses and a key limited to some agents", () => {
  it("answers a response of an agent outside the key's scope exactly as an unknown id", async () => {
    const unknown = await respond(onlyA, { previous_response_id: "run_scopeb0000000009" });
    const hidden = await respond(onlyA, { previous_response_id: ofB.run });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: {
        message: 'No response "run_scopeb0000000009".',
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "not_found",
      },
    });
    expect(hidden.status).toBe(404);
    // The same body once the id is swapped: nothing tells the two apart.
    expect(hidden.text.replace(ofB.run, "run_scopeb0000000009")).toBe(unknown.text);
    expect(hidden.text).not.toContain(B);
  });

  it("answers a conversation of an agent outside the key's scope exactly as an unknown id", async () => {
    const unknown = await respond(onlyA, { conversation: "ses_scopeb0000000009" });
    const hidden = await respond(onlyA, { conversation: ofB.session });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ param: "conversation", code: "not_found" });
    expect(hidden.status).toBe(404);
    expect(hidden.text.replace(ofB.session, "ses_scopeb0000000009")).toBe(unknown.text);
    expect(hidden.text).not.toContain(B);
  });

  it("answers a session named in x-waddle-session-id outside the scope exactly as an unknown one", async () => {
    const chat = (key: string, sessionId: string) =>
      server.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "x-waddle-session-id": sessionId },
        json: { model: A, messages: [{ role: "user", content: query }] },
      });
    const unknown = await chat(onlyA, "ses_scopeb0000000009");
    const hidden = await chat(onlyA, ofB.session);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ param: "x-waddle-session-id", code: "not_found" });
    expect(hidden.text.replace(ofB.session, "ses_scopeb0000000009")).toBe(unknown.text);
    const other = await chat(both, ofB.session);
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ param: "x-waddle-session-id", type: "invalid_request_error" });
    expect(other.body.error.message).toMatch(/belongs to a different model/);
  });

  it("refuses with a 400 a response or conversation of another agent the key may see", async () => {
    const previous = await respond(both, { previous_response_id: ofB.run });
    expect(previous.status).toBe(400);
    expect(previous.body.error).toMatchObject({
      param: "previous_response_id",
      type: "invalid_request_error",
      code: "validation_failed",
    });
    expect(previous.body.error.message).toMatch(/belongs to a different model \("writing-review"\)/);
    const conversation = await respond(both, { conversation: ofB.session });
    expect(conversation.status).toBe(400);
    expect(conversation.body.error).toMatchObject({ param: "conversation", code: "validation_failed" });
    expect(conversation.body.error.message).toMatch(/belongs to a different model/);
    // Nothing ran: B's session still has no turn of A.
    expect((await server.store.sessions.get(ofB.session))?.turns ?? []).toHaveLength(0);
  });

  it("continues a response of the key's own agent, through the openai client", async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: onlyA });
    const first = await openai.responses.create({ model: A, input: query });
    expect(first.status).toBe("completed");
    const second = await openai.responses.create({
      model: A,
      input: "And when will I see the refund?",
      previous_response_id: first.id,
    });
    expect(second.status).toBe("completed");
    expect(second.previous_response_id).toBe(first.id);
    const sessionId = (first as unknown as { conversation: { id: string } }).conversation.id;
    const session = await server.store.sessions.get(sessionId);
    expect(session?.turns.map((turn) => turn.runId)).toEqual([first.id, second.id]);
    // And the openai client sees an out-of-scope response as it sees an unknown one.
    await expect(
      openai.responses.create({ model: A, input: query, previous_response_id: ofB.run }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
