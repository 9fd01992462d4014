import { useHashRoute } from "../util/use-hash-route.js";

export const ACCESS_HASH = "#/settings/access";

/** True while the page shows `#/settings/access`. */
export function useAccessRoute(): boolean {
  return useHashRoute(ACCESS_HASH);
}
