import type { Express } from "express";

interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

const toPath = (raw: unknown): string => (typeof raw === "string" ? (raw === "/" ? "" : raw) : "*");

/** Every route the app serves as `{method, path}` with its full pattern (a RegExp route is `*`). */
export function listAppRoutes(app: Express): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const walk = (stack: readonly RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = toPath(layer.route.path);
        const full = path === "*" ? "*" : prefix + path || "/";
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on) routes.push({ method: method === "_all" ? "ALL" : method.toUpperCase(), path: full });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + toPath(layer.rawPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, "");
  return routes;
}
