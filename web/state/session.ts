import { useMemo } from "react";
import { Schema } from "effect";
import { AccessTokenPayloadSchema, type AccessTokenPayload } from "../../core/model/access-token.ts";
import { useAccessToken } from "./lazy-client.ts";

// Session as the screens see it, read from core/client's session facet.

const decodePayload = Schema.decodeUnknownExit(AccessTokenPayloadSchema);

/** The payload of a three-part dotted token (header.payload.signature, payload base64url JSON); null when unreadable. */
export function readTokenPayload(token: string | null): AccessTokenPayload | null {
  const part = token?.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(part.length / 4) * 4, "="),
    );
    const exit = decodePayload(JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))));
    return exit._tag === "Success" ? exit.value : null;
  } catch {
    return null;
  }
}

/** The access token while logged in, else null. */
export { useAccessToken };
/** What the token says of its user (role, username, email), before the token check has answered. */
export function useTokenPayload(): AccessTokenPayload | null {
  const token = useAccessToken();
  return useMemo(() => readTokenPayload(token), [token]);
}

export const useIsManager = (): boolean => useTokenPayload()?.role === "manager";
