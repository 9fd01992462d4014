import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The designer is served by the Waddle server from designer/dist; in `npm run dev` Vite proxies the API.
const apiUrl = process.env.WADDLE_API_URL ?? "http://127.0.0.1:8787";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ["source"] },
  // elkjs (1.4 MB) is loaded lazily on first auto-layout; the main chunk holds React, React Flow and zod
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1600 },
  server: {
    proxy: {
      "/api": apiUrl,
      "/socket.io": { target: apiUrl, ws: true },
    },
  },
});
