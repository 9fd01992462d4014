/** The prefix of a public chat's publishable key (issue 33). */
export const PUBLISHABLE_KEY_PREFIX = "wpk_";
/** The prefix of a public chat visitor's token. */
export const VISITOR_TOKEN_PREFIX = "wpv_";

/**
 * True for what the public side hands out (a publishable key, a visitor token): never a credential of any
 * other route, so the authenticator refuses them everywhere, even on a server that needs no sign-in.
 */
export function isPublicCredential(presented: string): boolean {
  return presented.startsWith(PUBLISHABLE_KEY_PREFIX) || presented.startsWith(VISITOR_TOKEN_PREFIX);
}
