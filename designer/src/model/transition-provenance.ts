/**
 * How a run's transition from one tool to the next came about; the canvas draws each differently. Here,
 * below both, because the run fold (`runs/`) makes it and the flow's arc edges (`graph/`) carry it.
 */
export type TransitionProvenance = "llm" | "auto_seq" | "parallel" | "join" | "resume" | "system";
