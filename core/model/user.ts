import { Schema } from "effect";
import { LanguageSchema, RegulatoryRegionSchema, RoleSchema } from "./enums.ts";
import { IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Users of an organisation (accounts §3 "User: email, role"; §6 invite, re-role, delete).

/** invited: invitation sent, no password yet; active: signed up; disabled: the organisation's identity provider no longer
 * grants a role (issue 33). (Our design: the users page lists all three.) */
export const UserStatusSchema = Schema.Literals(["invited", "active", "disabled"]);
export type UserStatus = Schema.Schema.Type<typeof UserStatusSchema>;

export const UserSchema = Schema.Struct({
  id: IdSchema,
  email: Schema.String,
  /** Login name; null until the invitation is accepted. */
  username: Schema.NullOr(Schema.String),
  role: RoleSchema,
  status: UserStatusSchema,
  createdAt: IsoDateTimeSchema,
});
export type User = Schema.Schema.Type<typeof UserSchema>;

/**
 * The logged-in user's profile (accounts §2 "The user profile is read for this": the manual depends on market and,
 * for MDR, on country). Our design: also carries the multi-tests switch the seeds read "from the user's account data".
 */
export const UserProfileSchema = Schema.Struct({
  id: IdSchema,
  username: Schema.String,
  email: Schema.String,
  role: RoleSchema,
  organisationId: IdSchema,
  market: RegulatoryRegionSchema,
  /** ISO 3166-1 alpha-2, upper case; null when unknown (the manual then uses the market's default document). */
  country: Schema.NullOr(Schema.String),
  language: LanguageSchema,
  multiTests: Schema.Boolean,
});
export type UserProfile = Schema.Schema.Type<typeof UserProfileSchema>;
