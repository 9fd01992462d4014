import path from "node:path";
import { defineConfig } from "vite";

/**
 * The hosted public chat page (`chat.html`, `src/public-chat/`): a second build into the designer's `dist`
 * after the designer's own (which empties it), so that the designer's build stays as it is. No React, no
 * designer code: the page weighs what marked, DOMPurify and its own few files weigh. The server serves it
 * at `/chat/:publicId` (server/src/public/hosted-page-routes.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ["source"] },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: true,
    // Every browser the page supports has modulepreload; the polyfill would be a second request.
    modulePreload: { polyfill: false },
    rolldownOptions: { input: { chat: path.join(import.meta.dirname, "chat.html") } },
  },
});
