import { useEffect, useState } from "react";

/** True while the page's hash (its query aside) is `hash`, following links and back/forward. */
export function useHashRoute(hash: string): boolean {
  const read = () => window.location.hash.split("?")[0] === hash;
  const [shown, setShown] = useState(read);
  useEffect(() => {
    const update = () => setShown(window.location.hash.split("?")[0] === hash);
    update();
    window.addEventListener("hashchange", update);
    window.addEventListener("popstate", update);
    return () => {
      window.removeEventListener("hashchange", update);
      window.removeEventListener("popstate", update);
    };
  }, [hash]);
  return shown;
}
