import type { ClientRequest, IncomingMessage } from "node:http";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The designer is served by the Waddle server from designer/dist; in `npm run dev` Vite proxies the API.
const apiUrl = process.env.WADDLE_API_URL ?? "http://127.0.0.1:8787";
const apiOrigin = new URL(apiUrl).origin;

/**
 * Without a token the server answers only requests addressed to its own loopback name and port, from its
 * own origin (DNS rebinding, cross-site requests). `changeOrigin` gives proxied requests the server's Host;
 * this gives those from the designer's own page the server's Origin. Any other Origin passes unchanged, so
 * the server still refuses it.
 */
function presentAsApiOrigin(proxyRequest: ClientRequest, request: IncomingMessage): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  try {
    if (new URL(origin).host === request.headers.host) proxyRequest.setHeader("origin", apiOrigin);
  } catch {
    // An opaque origin ("null") is no page of ours: leave it for the server to refuse.
  }
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ["source"] },
  // elkjs (1.4 MB) is loaded lazily on first auto-layout; the main chunk holds React, React Flow and zod
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1600 },
  server: {
    proxy: {
      "/api": {
        target: apiUrl,
        changeOrigin: true,
        configure: (proxy) => proxy.on("proxyReq", presentAsApiOrigin),
      },
      "/socket.io": {
        target: apiUrl,
        ws: true,
        changeOrigin: true,
        // Polling requests go through proxyReq, the WebSocket handshake through proxyReqWs.
        configure: (proxy) => proxy.on("proxyReq", presentAsApiOrigin).on("proxyReqWs", presentAsApiOrigin),
      },
    },
  },
});
