import { atom } from "jotai";
import { Schema } from "effect";
import { AccessTokenPayloadSchema, type AccessTokenPayload } from "../../core/model/access-token.ts";

// Session as the screens see it. The binding in state/client.ts keeps these atoms in step with core/client.

export type SessionEnd = "expired" | "another-session";

export const accessTokenAtom = atom<string | null>(null);
/** Set when the server ended the session: the shell shows the matching dialog, then goes to /login. */
export const sessionEndAtom = atom<SessionEnd | null>(null);

const decodePayload = Schema.decodeUnknownExit(AccessTokenPayloadSchema);

/** The payload of a three-part dotted token (header.payload.signature, payload base64url JSON); null when unreadable. */
export function readTokenPayload(token: string | null): AccessTokenPayload | null {
  const part = token?.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const exit = decodePayload(JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))));
    return exit._tag === "Success" ? exit.value : null;
  } catch {
    return null;
  }
}

export const tokenPayloadAtom = atom((get) => readTokenPayload(get(accessTokenAtom)));
export const isManagerAtom = atom((get) => get(tokenPayloadAtom)?.role === "manager");
