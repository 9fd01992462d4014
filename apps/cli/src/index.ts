// The CLI as a library: `runCli(argv, io)` returns the exit code.
export { getProcessIo, runCli, USAGE } from "./main.js";
export type { CliIo } from "./cli-io.js";
export { EventPrinter, previewValue } from "./event-printer.js";
