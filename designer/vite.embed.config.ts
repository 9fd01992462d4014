import path from "node:path";
import { defineConfig } from "vite";

/**
 * `embed.js`, the script other sites include to add the chat button: one classic script (IIFE) at a stable
 * name, built into the designer's `dist` after the designer and the chat page. The server serves it at
 * `/embed.js` with CORS-free, cross-origin-loadable headers (server/src/public/hosted-page-routes.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  build: {
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: false,
    lib: {
      entry: path.join(import.meta.dirname, "src/embed/embed.ts"),
      name: "WaddleChatEmbed",
      formats: ["iife"],
      fileName: () => "embed.js",
    },
  },
});
