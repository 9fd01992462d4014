import { useEffect, useState } from "react";
import { parseCredentialsRoute, type CredentialsRoute } from "./settings-route.js";

/** The Credentials route the URL names now (null on the designer), following back/forward and links. */
export function useCredentialsRoute(): CredentialsRoute | null {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const update = () => setHash(window.location.hash);
    window.addEventListener("hashchange", update);
    window.addEventListener("popstate", update);
    return () => {
      window.removeEventListener("hashchange", update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return parseCredentialsRoute(hash);
}
