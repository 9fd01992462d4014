import { accumulateResponse } from "openai/lib/responses/ResponseAccumulator";
import type {
  Response,
  ResponseStreamEvent as OpenAiStreamEvent,
} from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { createResponseObject } from "./response-object.js";
import { ResponseEventWriter, type ResponseStreamEvent } from "./response-event-writer.js";

/** Runs a script of deltas through the writer and the `openai` client's own accumulator. */
function stream(script: (writer: ResponseEventWriter) => void) {
  const events: ResponseStreamEvent[] = [];
  const writer = new ResponseEventWriter("run_1", (event) => events.push(event));
  const head = { runId: "run_1", model: "helper", createdAt: 1 };
  writer.emit({
    type: "response.created",
    response: createResponseObject({ ...head, status: "in_progress", output: [] }),
  });
  script(writer);
  writer.emit({
    type: "response.completed",
    response: createResponseObject({ ...head, status: "completed", output: writer.output }),
  });
  let snapshot: Response | undefined;
  for (const event of events) snapshot = accumulateResponse(event as unknown as OpenAiStreamEvent, snapshot);
  return { events, snapshot: snapshot!, writer };
}

describe("ResponseEventWriter", () => {
  it("streams thinking as a reasoning item and the answer as a message the openai client accumulates", () => {
    const { events, snapshot } = stream((writer) => {
      writer.add({ reasoning_content: "Look it up " });
      writer.add({ reasoning_content: "first." });
      writer.add({ content: "Duplicate charges " });
      writer.add({ content: "are reversed." });
      writer.finish("Duplicate charges are reversed.");
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.content_part.added",
      "response.reasoning_text.delta",
      "response.reasoning_text.delta",
      "response.reasoning_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(snapshot.output_text).toBe("Duplicate charges are reversed.");
    expect(snapshot.output).toEqual([
      expect.objectContaining({
        type: "reasoning",
        content: [{ type: "reasoning_text", text: "Look it up first." }],
      }),
      expect.objectContaining({
        type: "message",
        status: "completed",
        content: [expect.objectContaining({ type: "output_text", text: "Duplicate charges are reversed." })],
      }),
    ]);
  });

  it("completes the message with the run's answer when the stream left it out or differed", () => {
    expect(stream((writer) => writer.finish("Whole answer.")).snapshot.output_text).toBe("Whole answer.");
    const tail = stream((writer) => {
      writer.add({ content: "Half" });
      writer.finish("Half and the rest.");
    });
    expect(tail.snapshot.output_text).toBe("Half and the rest.");
    expect(tail.writer.text).toBe("Half and the rest.");
  });
});
