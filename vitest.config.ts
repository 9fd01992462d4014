import { defaultServerConditions, type Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Dependencies transformed by Vite (see `server.deps.inline`) ship source maps without their sources: not
 * worth a warning per file on every run. (Vitest replaces `customLogger`, so this wraps the resolved one.)
 */
const quietMissingSources: Plugin = {
  name: "quiet-missing-sources",
  configResolved(config) {
    const warnOnce = config.logger.warnOnce.bind(config.logger);
    config.logger.warnOnce = (message, options) => {
      if (!message.endsWith("points to missing source files")) warnOnce(message, options);
    };
  },
};

const SCALE_OUT_TESTS = ["server/src/scale/scale-out*.test.ts", "server/src/access/access-scale-out.test.ts"];
const SCALE_OUT_ALONE = process.env.WADDLE_TEST_SCALE_OUT;

// Workspace packages resolve to their TypeScript sources (the "source" export condition), so that tests
// never need a build.
// Not "module": vitest hands these conditions to Node, and packages whose "module" builds import files
// without extensions (OpenTelemetry's) fail when Node loads them; their CommonJS builds work.
const serverConditions = ["source", ...defaultServerConditions.filter((name) => name !== "module")];

export default defineConfig({
  plugins: [quietMissingSources],
  resolve: { conditions: serverConditions },
  ssr: { resolve: { conditions: serverConditions } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "server/src/**/*.test.ts",
      "designer/src/**/*.test.{ts,tsx}",
      "apps/*/src/**/*.test.ts",
      "apps/*/tools/**/*.test.ts",
      "test/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    // The scale-out suite starts PostgreSQL, redis-server and three Waddle processes, and its takeovers
    // are timed on leases: beside the other files on a 2-core machine it starves. `npm run test:unit`
    // runs it on its own after the rest (WADDLE_TEST_SCALE_OUT=only).
    ...(SCALE_OUT_ALONE === "only" ? { include: SCALE_OUT_TESTS } : {}),
    exclude: [
      "**/node_modules/**",
      "**/dist/**",
      "test/e2e/**",
      ...(SCALE_OUT_ALONE === "only" || SCALE_OUT_ALONE === "with"
        ? []
        : SCALE_OUT_TESTS.map((file) => `**/${file}`)),
    ],
    // eventsource-parser (under the MCP SDK's client and the AI SDK) publishes a "source" condition
    // pointing at its .ts files, which Node cannot load: Vite transforms it and its importers instead of
    // leaving them to Node.
    server: {
      deps: {
        inline: ["@modelcontextprotocol/sdk", "eventsource-parser", /node_modules\/(ai|@ai-sdk)\//],
      },
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
