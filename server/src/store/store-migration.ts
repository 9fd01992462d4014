import { ApiError } from "../shared/api-error.js";

/**
 * One schema change of a store (`SQLITE_MIGRATIONS`, `PG_MIGRATIONS`): `sql` applies it, once; `down`, when
 * given, undoes it, so that an operator can go back to an older build (`npm run migrate:down -- --to N`).
 * A migration without `down` cannot be reverted; add one beside its `sql` when it can be undone.
 */
export interface StoreMigration {
  id: number;
  name: string;
  sql: string;
  down?: string;
}

export type MigrationErrorCode = "migration_irreversible" | "migration_unknown";

/** A revert refused before it changed anything; `details` names the migration in the way. */
export class MigrationError extends ApiError<MigrationErrorCode> {
  declare readonly details: { id: number; name?: string; toId: number };

  constructor(
    code: MigrationErrorCode,
    message: string,
    details: { id: number; name?: string; toId: number },
  ) {
    super(code, message, details);
    this.name = "MigrationError";
  }
}

/**
 * The applied migrations a revert to `toId` undoes, latest first: every applied one whose id is above
 * `toId`, in the reverse of the list's order (the order they were applied in). Refuses, before anything is
 * undone, when one of them has no `down`, or was applied by a newer build that this list does not know.
 */
export function getMigrationsToRevert(options: {
  migrations: readonly StoreMigration[];
  applied: Iterable<number>;
  toId: number;
}): StoreMigration[] {
  const { migrations, toId } = options;
  const known = new Set(migrations.map((migration) => migration.id));
  const applied = new Set(options.applied);
  for (const id of [...applied].sort((a, b) => b - a)) {
    if (id > toId && !known.has(id)) {
      throw new MigrationError(
        "migration_unknown",
        `Migration ${id} was applied by a newer Waddle than this one: revert it with that build first.`,
        { id, toId },
      );
    }
  }
  const plan = migrations.filter((migration) => migration.id > toId && applied.has(migration.id)).reverse();
  const stuck = plan.find((migration) => migration.down === undefined);
  if (stuck) {
    // The lowest id a revert can reach: every applied migration above it has a down.
    const floor = Math.max(...plan.filter((migration) => migration.down === undefined).map((m) => m.id));
    throw new MigrationError(
      "migration_irreversible",
      `Migration ${stuck.id} (${stuck.name}) has no down migration, so the database cannot go back to ${toId}: ` +
        `revert to ${floor} at the lowest, or restore a backup.`,
      { id: stuck.id, name: stuck.name, toId },
    );
  }
  return plan;
}
