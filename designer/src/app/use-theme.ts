import { useEffect, useSyncExternalStore } from "react";
import { useUi } from "../editor/editor-context.js";

const QUERY = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener("change", onChange);
  return () => media.removeEventListener("change", onChange);
}

/** The theme in effect (the system's when the preference is "system"), applied as `data-theme` on <html>. */
export function useTheme(): "light" | "dark" {
  const preference = useUi((state) => state.theme);
  const systemDark = useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches);
  const resolved = preference === "system" ? (systemDark ? "dark" : "light") : preference;
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);
  return resolved;
}
