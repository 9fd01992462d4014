// `npm run migrate:down -- --to <id> [--dry-run]`: undoes the store's migrations above <id> (see
// store/migrate-down-command.ts), for going back to an older build.
import { runMigrateDown } from "./store/migrate-down-command.js";

process.exitCode = await runMigrateDown({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
