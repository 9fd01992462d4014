import type { Command } from "../editor/command-registry.js";

/** Commands that change the document without being undoable edits themselves. */
const DOCUMENT_COMMANDS: ReadonlySet<string> = new Set([
  "undo",
  "redo",
  "select-all",
  "import",
  "reload-agent",
]);

/** True for a command that edits the design: it is off while a run is shown on the canvas. */
export function isDesignCommand(command: Pick<Command<unknown>, "name" | "undoable">): boolean {
  return command.undoable || DOCUMENT_COMMANDS.has(command.name);
}

/**
 * The commands with design editing switched off while a run is shown (the canvas then shows the version
 * that ran, not the document): toolbar, keyboard and context menu all ask `isEnabled`.
 */
export function getRunLockedCommands<Context>(options: {
  commands: readonly Command<Context>[];
  isRunShown: (context: Context) => boolean;
}): Command<Context>[] {
  const { commands, isRunShown } = options;
  return commands.map((command) => {
    if (!isDesignCommand(command)) return command;
    const isEnabled = command.isEnabled;
    return {
      ...command,
      isEnabled: (context: Context) => !isRunShown(context) && (isEnabled?.(context) ?? true),
    };
  });
}
