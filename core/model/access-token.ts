import { Schema } from "effect";
import { RoleSchema } from "./enums.ts";
import { IdSchema } from "./ids.ts";

// Access-token payload (accounts §3: role, username, email; carries an expiry time). exp is in seconds since the
// epoch (JWT convention). sub and organisationId are our design so the server can scope calls without a lookup.
export const AccessTokenPayloadSchema = Schema.Struct({
  role: RoleSchema,
  username: Schema.String,
  email: Schema.String,
  exp: Schema.Finite,
  sub: Schema.optionalKey(IdSchema),
  organisationId: Schema.optionalKey(IdSchema),
});
export type AccessTokenPayload = Schema.Schema.Type<typeof AccessTokenPayloadSchema>;

/** True when the token has expired at `nowMs` (Clock.now()). */
export const isTokenExpired = (payload: AccessTokenPayload, nowMs: number): boolean => payload.exp * 1000 <= nowMs;

const decodePayload = Schema.decodeUnknownExit(AccessTokenPayloadSchema);

/** The payload of a three-part dotted token (header.payload.signature, payload base64url JSON), read without checking
 * its signature (only the server can; this is for showing the user and for routing hints); null when unreadable. */
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
