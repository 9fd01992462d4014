import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources (the "source" export condition), so that tests
// never need a build.
export default defineConfig({
  resolve: { conditions: ["source", ...defaultServerConditions] },
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "server/src/**/*.test.ts",
      "designer/src/**/*.test.{ts,tsx}",
      "apps/*/src/**/*.test.ts",
      "apps/*/tools/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**", "test/e2e/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
