import { isShortcutMatch, type KeyStroke } from "./shortcut.js";

/** An editor command as data: toolbar, keyboard, context menu and the shortcuts dialog all run these. */
export interface Command<Context> {
  name: string;
  label: string;
  /** Shown in menus and the help dialog, e.g. `Mod+Shift+Z`. */
  shortcut?: string;
  /** More keys that run the command (`Backspace` besides `Delete`). */
  extraShortcuts?: readonly string[];
  /** Where the help dialog lists it. */
  section?: string;
  isEnabled?: (context: Context) => boolean;
  perform: (context: Context) => void | Promise<void>;
  /** True when the command edits the document: all its changes become one undo step. */
  undoable: boolean;
}

export interface CommandRegistry<Context> {
  list(): readonly Command<Context>[];
  get(name: string): Command<Context> | undefined;
  isEnabled(name: string, context: Context): boolean;
  /** Runs a command if it exists and is enabled; returns whether it ran. */
  execute(name: string, context: Context): boolean;
  /** The command a key stroke triggers, if any. */
  findByKey(stroke: KeyStroke, isMac: boolean): Command<Context> | undefined;
}

/**
 * Creates the registry. `transact` wraps an undoable command's synchronous changes into one undo step
 * (the document store's `transact`).
 */
export function createCommandRegistry<Context>(options: {
  commands: readonly Command<Context>[];
  transact: (context: Context, label: string, perform: () => void) => void;
  onError?: (error: unknown, command: Command<Context>) => void;
}): CommandRegistry<Context> {
  const byName = new Map<string, Command<Context>>();
  for (const command of options.commands) {
    if (byName.has(command.name))
      throw new Error(`Command "${command.name}" is registered twice: give it a unique name.`);
    byName.set(command.name, command);
  }
  const isEnabled = (command: Command<Context>, context: Context) => command.isEnabled?.(context) ?? true;
  const report = (error: unknown, command: Command<Context>) => {
    if (options.onError) options.onError(error, command);
    else throw error;
  };

  return {
    list: () => options.commands,
    get: (name) => byName.get(name),
    isEnabled(name, context) {
      const command = byName.get(name);
      return command !== undefined && isEnabled(command, context);
    },
    execute(name, context) {
      const command = byName.get(name);
      if (!command || !isEnabled(command, context)) return false;
      const run = () => {
        const result = command.perform(context);
        if (result instanceof Promise) result.catch((error: unknown) => report(error, command));
      };
      try {
        if (command.undoable) options.transact(context, command.label, run);
        else run();
      } catch (error) {
        report(error, command);
      }
      return true;
    },
    findByKey(stroke, isMac) {
      return options.commands.find((command) =>
        [command.shortcut, ...(command.extraShortcuts ?? [])].some(
          (shortcut) => shortcut !== undefined && isShortcutMatch(shortcut, stroke, isMac),
        ),
      );
    },
  };
}
