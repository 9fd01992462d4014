/** The Credentials page's route, `#/settings/credentials`, with what to prefill when a fix action opened it. */
export interface CredentialsRoute {
  /** An LLM credential to add (from the run panel's "no key" warning). */
  addLlm?: string;
  /** A secret to add (from a "missing secret" issue). */
  addSecret?: string;
  /** A host to allow on a list (from an "Allow host…" action). */
  allow?: { list: "http" | "llm"; entry: string };
}

export const CREDENTIALS_HASH = "#/settings/credentials";

/** The Credentials route a hash names, or null for any other hash. */
export function parseCredentialsRoute(hash: string): CredentialsRoute | null {
  const [path, search = ""] = hash.split("?", 2);
  if (path !== CREDENTIALS_HASH && path !== `${CREDENTIALS_HASH}/`) return null;
  const params = new URLSearchParams(search);
  const route: CredentialsRoute = {};
  const addLlm = params.get("add-llm");
  if (addLlm) route.addLlm = addLlm;
  const addSecret = params.get("add-secret");
  if (addSecret) route.addSecret = addSecret;
  for (const list of ["http", "llm"] as const) {
    const entry = params.get(`allow-${list}`);
    if (entry) route.allow = { list, entry };
  }
  return route;
}

/** The hash of the Credentials page, prefilled as `route` says. */
export function getCredentialsHash(route: CredentialsRoute = {}): string {
  const params = new URLSearchParams();
  if (route.addLlm) params.set("add-llm", route.addLlm);
  if (route.addSecret) params.set("add-secret", route.addSecret);
  if (route.allow) params.set(`allow-${route.allow.list}`, route.allow.entry);
  const search = params.toString();
  return search ? `${CREDENTIALS_HASH}?${search}` : CREDENTIALS_HASH;
}

/** Goes to `hash` as a new history entry and tells the page (a hash set this way fires no popstate here). */
export function navigateToHash(hash: string): void {
  window.history.pushState(null, "", hash || window.location.pathname);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}
