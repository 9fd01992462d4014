import { useEffect, type ReactElement, type ReactNode } from "react";
import { loadMe, meStore } from "../store/me-store.js";
import { SignInScreen } from "./sign-in-screen.js";

/** The designer once `/api/me` answers; the sign-in screen when it says 401. */
export function AccessGate({ children }: { children: ReactNode }): ReactElement | null {
  const status = meStore((state) => state.status);
  useEffect(() => {
    void loadMe();
  }, []);
  if (status === "loading") return null;
  if (status === "signin") return <SignInScreen />;
  // Offline: the designer shows its own "cannot reach the server" states.
  return <>{children}</>;
}
