/**
 * The note shown when the open agent is not what the run ran: another agent, a newer (or older) saved
 * version, or unsaved changes. Null when they are the same.
 */
export function getVersionNote(options: {
  run: { agentId: string | null; agentVersion: number | null };
  document: { agentId: string | null; baseVersion: number | null; dirty: boolean };
}): string | null {
  const { run, document } = options;
  if (run.agentId === null || run.agentVersion === null) return null;
  if (document.agentId !== run.agentId)
    return `This run is of “${run.agentId}” v${run.agentVersion}, not the agent open in the editor.`;
  const changes: string[] = [];
  if (document.baseVersion !== null && document.baseVersion !== run.agentVersion)
    changes.push(`is now v${document.baseVersion}`);
  if (document.dirty) changes.push("has unsaved changes");
  if (changes.length === 0) return null;
  return `This run shows v${run.agentVersion}; the open agent ${changes.join(" and ")}.`;
}
