import { useEffect, useState } from "react";

export const ACCESS_HASH = "#/settings/access";

/** True while the page shows `#/settings/access`. */
export function useAccessRoute(): boolean {
  const read = () => window.location.hash.split("?")[0] === ACCESS_HASH;
  const [shown, setShown] = useState(read);
  useEffect(() => {
    const update = () => setShown(read());
    window.addEventListener("hashchange", update);
    window.addEventListener("popstate", update);
    return () => {
      window.removeEventListener("hashchange", update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return shown;
}
