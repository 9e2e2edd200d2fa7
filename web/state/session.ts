import { useMemo } from "react";
import { type AccessTokenPayload, readTokenPayload } from "../../core/model/access-token.ts";
import { useAccessToken } from "./lazy-client.ts";

// Session as the screens see it, read from core/client's session facet.

/** The access token while logged in, else null. */
export { useAccessToken };
/** What the token says of its user (role, username, email), before the token check has answered. */
export function useTokenPayload(): AccessTokenPayload | null {
  const token = useAccessToken();
  return useMemo(() => readTokenPayload(token), [token]);
}

export const useIsManager = (): boolean => useTokenPayload()?.role === "manager";
