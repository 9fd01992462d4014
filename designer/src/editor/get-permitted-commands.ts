import { getCommandPermission } from "../store/me-store.js";
import type { Command } from "./command-registry.js";

/**
 * The commands, each off while the signed-in role lacks the permission it needs (`getCommandPermission`):
 * toolbar, keyboard and context menu all ask `isEnabled`, so a viewer's Delete key or Ctrl+S does nothing.
 */
export function getPermittedCommands<Context>(options: {
  commands: readonly Command<Context>[];
  isDenied: (permission: string) => boolean;
}): Command<Context>[] {
  const { commands, isDenied } = options;
  return commands.map((command) => {
    const permission = getCommandPermission(command);
    if (permission === undefined) return command;
    const isEnabled = command.isEnabled;
    return {
      ...command,
      isEnabled: (context: Context) => !isDenied(permission) && (isEnabled?.(context) ?? true),
    };
  });
}
