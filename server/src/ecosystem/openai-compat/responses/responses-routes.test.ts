import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../testing/start-test-server.js";
import { waitForRun } from "../../../testing/wait-for-run.js";

let server: TestServer;
let openai: OpenAI;
beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token" });
});
afterAll(() => server.stop());

const query = "My invoice shows a duplicate charge";

describe("/v1/responses: the Responses API on sessions", () => {
  it("answers a response as a turn of a new session, and continues it with previous_response_id", async () => {
    const first = await openai.responses.create({ model: "support-triage", input: query });
    expect(first).toMatchObject({ object: "response", status: "completed", model: "support-triage" });
    expect(first.output_text).toMatch(/Duplicate billing charges are reversed/);
    expect(first.usage?.total_tokens).toBeGreaterThanOrEqual(0);
    const sessionId = (first as unknown as { conversation: { id: string } }).conversation.id;
    expect(sessionId).toMatch(/^ses_/);
    const run = (await server.request(`/api/runs/${first.id}`)).body;
    expect(run).toMatchObject({ sessionId, turn: 1, query });

    const second = await openai.responses.create({
      model: "support-triage",
      input: [{ role: "user", content: "And when will I see the refund?" }],
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    const session = (await server.request(`/api/sessions/${sessionId}`)).body;
    expect(session.turns.map((turn: { runId: string }) => turn.runId)).toEqual([first.id, second.id]);
    const fetched = await openai.responses.retrieve(second.id);
    expect(fetched).toMatchObject({ id: second.id, status: "completed", output_text: second.output_text });
  });

  it("streams the event sequence responses.stream() accepts, on a named conversation", async () => {
    const { sessionId } = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "support-triage" } })
    ).body;
    const stream = openai.responses.stream({
      model: "support-triage",
      input: query,
      conversation: sessionId,
    } as Parameters<typeof openai.responses.stream>[0]);
    const types: string[] = [];
    stream.on("event", (event) => types.push(event.type));
    const final = await stream.finalResponse();
    expect(final.status).toBe("completed");
    expect(final.output_text).toMatch(/Duplicate billing charges are reversed/);
    expect(types[0]).toBe("response.created");
    expect(types).toContain("response.output_item.added");
    expect(types).toContain("response.content_part.added");
    expect(types).toContain("response.output_text.delta");
    expect(types).toContain("response.output_text.done");
    expect(types).toContain("response.output_item.done");
    expect(types.at(-1)).toBe("response.completed");
    expect((await server.request(`/api/sessions/${sessionId}`)).body.turns).toHaveLength(1);
  });

  it("runs a chat completion with x-waddle-session-id as that session's turn", async () => {
    const { sessionId } = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "support-triage" } })
    ).body;
    const completion = await openai.chat.completions.create(
      { model: "support-triage", messages: [{ role: "user", content: query }] },
      { headers: { "x-waddle-session-id": sessionId } },
    );
    const runId = (completion as unknown as { waddle: { runId: string } }).waddle.runId;
    expect((await server.request(`/api/runs/${runId}`)).body).toMatchObject({ sessionId, turn: 1 });
    const bad = await openai.chat.completions
      .create(
        { model: "support-triage", messages: [{ role: "user", content: query }] },
        { headers: { "x-waddle-session-id": "nope" } },
      )
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it("shares a conversation's turns with POST /api/sessions/:id/turns, conflicts included", async () => {
    const { sessionId } = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "support-triage" } })
    ).body;
    const viaRest = await server.request(`/api/sessions/${sessionId}/turns`, {
      method: "POST",
      json: { query },
    });
    expect(viaRest.status).toBe(202);
    await waitForRun(server, viaRest.body.runId);
    const viaV1 = await openai.responses.create({
      model: "support-triage",
      input: "And when will I see the refund?",
      conversation: sessionId,
    } as never);
    expect((await server.request(`/api/runs/${viaV1.id}`)).body).toMatchObject({ sessionId, turn: 2 });
    const session = (await server.request(`/api/sessions/${sessionId}`)).body;
    expect(session.turns.map((turn: { runId: string }) => turn.runId)).toEqual([
      viaRest.body.runId,
      viaV1.id,
    ]);

    // A turn waiting at a pause refuses the next one, whichever surface asks.
    const approval = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "email-approval" } })
    ).body.sessionId;
    const paused = await server.request(`/api/sessions/${approval}/turns`, {
      method: "POST",
      json: { query: "Email Dana that the Q3 report is ready" },
    });
    expect((await waitForRun(server, paused.body.runId, new Set(["paused", "finished"]))).status).toBe(
      "paused",
    );
    const refused = await server.request("/v1/responses", {
      method: "POST",
      json: { model: "email-approval", input: "Hello?", conversation: approval },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/waiting at a pause/);
  });

  it("refuses an unknown model, conversation or previous response", async () => {
    await expect(openai.responses.create({ model: "no-such-agent", input: "hi" })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    await expect(
      openai.responses.create({
        model: "support-triage",
        input: "hi",
        previous_response_id: "run_0000000000000000",
      }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      openai.responses.create({
        model: "support-triage",
        input: "hi",
        conversation: "ses_0000000000000000",
      } as never),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.retrieve("run_0000000000000000")).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });
});
