import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunAnswer } from "./run-answer.js";

const view = {
  answer: "",
  answerDone: false,
  finish: null,
  status: "running" as const,
  guards: { input: [], output: [] },
  guardChecking: null,
};

describe("the run's answer while output guards check it", () => {
  it("says the answer is being checked, and shows none of it", () => {
    const html = renderToString(
      <RunAnswer
        view={{
          ...view,
          answer: "held text",
          guardChecking: { on: "output", guards: ["tone", "pii"], pending: ["tone"], seq: 9 },
        }}
      />,
    ).replace(/<!-- -->/g, "");
    expect(html).toMatch(/data-testid="answer-checking"[^>]*>.*Checking the answer…/);
    expect(html).toMatch(/data-testid="run-answer"[^>]*hidden=""/);
  });

  it("shows the answer with the output guards' shield once they decided, and no check once the run ended", () => {
    const html = renderToString(
      <RunAnswer
        view={{
          ...view,
          status: "finished",
          answer: "Refunds take 5 days.",
          answerDone: true,
          guardChecking: { on: "output", guards: ["tone"], pending: ["tone"], seq: 9 },
          guards: {
            input: [],
            output: [
              {
                guard: "tone",
                on: "output",
                check: "llm",
                verdict: "pass",
                action: "none",
                decisions: 1,
                acted: 0,
                findings: [],
                seq: 10,
              },
            ],
          },
        }}
      />,
    );
    expect(html).not.toContain("answer-checking");
    expect(html).toMatch(/data-testid="guard-shield"[^>]*data-on="output"[^>]*data-verdict="pass"/);
    expect(html).toContain("Guard tone passed the answer");
    expect(html).toContain("Refunds take 5 days.");
  });
});
