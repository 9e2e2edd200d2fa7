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
