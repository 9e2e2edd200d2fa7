import { Schema } from "effect";
import { AccessTokenPayloadSchema } from "../access-token.ts";
import { RoleSchema } from "../enums.ts";
import { IdSchema } from "../ids.ts";
import { OrganisationSchema } from "../organisation.ts";
import { UserProfileSchema, UserSchema } from "../user.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Deleted, Empty, IdQuery } from "./shared.ts";
import { SecondFactorStepSchema } from "./second-factor.ts";

// Account calls: accounts seed §7 (login, session, password, users, organisation, version, user profile).

export const login = endpoint({
  name: "login",
  method: "POST",
  path: "login",
  body: Schema.Struct({ username: Schema.String, password: Schema.String }),
  // With secondFactor (./second-factor.ts), accessToken is the token of the sign-in's second step, not a session's:
  // every call but the second step's refuses it, so a client that ignores secondFactor is not signed in.
  response: Schema.Struct({ accessToken: Schema.String, secondFactor: Schema.optionalKey(SecondFactorStepSchema) }),
  // forbidden: the organisation signs in through its identity provider and has turned passwords off (issue 33).
  errors: [...commonErrors, "invalid_credentials", "forbidden"],
  auth: "none",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign:
    "answer: data {accessToken}; the envelope's accessToken carries the same token. With a second factor (issue 33 item 2): data {accessToken: the second step's challenge, secondFactor: {step}} and no envelope token (no session yet)",
});

export const logout = endpoint({
  name: "logout",
  method: "POST",
  path: "logout",
  response: Empty,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: false,
  source: "accounts §7",
});

export const checkToken = endpoint({
  name: "checkToken",
  method: "POST",
  path: "check_token",
  response: AccessTokenPayloadSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "payload not shown: no body; answers the token's payload, or 401 token_expired / token_verification_error",
});

export const passwordResetRequest = endpoint({
  name: "passwordReset.request",
  method: "POST",
  path: "password_reset",
  body: Schema.Struct({ email: Schema.String }),
  response: Empty,
  errors: [...commonErrors, "user_not_found"],
  auth: "none",
  carriesAccessToken: false,
  source: "accounts §7",
  ourDesign: "user_not_found answers 404; the client shows the 'sent' message for 200, user_not_found and 401 alike (seed)",
});

export const passwordResetConfirm = endpoint({
  name: "passwordReset.confirm",
  method: "PUT",
  path: "password_reset",
  body: Schema.Struct({ email: Schema.String, token: Schema.String, password: Schema.String }),
  response: Empty,
  errors: [...commonErrors, "not_found"],
  auth: "reset-token",
  carriesAccessToken: false,
  source: "accounts §7",
  ourDesign: "an expired or unknown reset token answers 401 token_expired ('link expired')",
});

export const passwordResetCheck = endpoint({
  name: "passwordReset.check",
  method: "GET",
  path: "password_reset",
  response: Empty,
  errors: commonErrors,
  auth: "reset-token",
  carriesAccessToken: false,
  source: "our design",
  ourDesign:
    "not in the seeds' table: the reset page checks its link when it opens (accounts seed §2 'Expired token: an expired-link message'), reading only: the token stays usable; 401 token_expired when expired or used, token_verification_error when not a reset token of ours",
});

export const passwordChange = endpoint({
  name: "passwordChange",
  method: "POST",
  path: "password_change",
  body: Schema.Struct({ old_password: Schema.String, new_password: Schema.String }),
  response: Empty,
  errors: [...commonErrors, "invalid_credentials"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "a wrong old password answers 401 invalid_credentials; a new password breaking the policy 400 validation_error",
});

export const userSignup = endpoint({
  name: "user.signup",
  method: "POST",
  path: "user/signup",
  body: Schema.Struct({ invitationId: IdSchema, password: Schema.String, invitationToken: Schema.String }),
  response: Empty,
  errors: [...commonErrors, "not_found", "already_registered"],
  auth: "invitation-token",
  carriesAccessToken: false,
  source: "accounts §7",
  ourDesign: "an expired invitation answers 401 token_expired",
});

export const UserInviteBodySchema = Schema.Struct({
  emails: Schema.Array(Schema.String),
  role: RoleSchema,
});
export const UserInviteAnswerSchema = Schema.Struct({
  /** Addresses an invitation was sent to. */
  invited: Schema.Array(Schema.String),
  alreadyInvited: Schema.Array(Schema.String),
  alreadyRegistered: Schema.Array(Schema.String),
});
export type UserInviteAnswer = Schema.Schema.Type<typeof UserInviteAnswerSchema>;

export const userInvite = endpoint({
  name: "user.invite",
  method: "POST",
  path: "user/invite",
  body: UserInviteBodySchema,
  response: UserInviteAnswerSchema,
  successTypes: ["invitations_partial"],
  errors: [...commonErrors, "forbidden", "already_invited", "already_registered"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign:
    "not shown: invites several addresses with one role (managers only). Some already invited or registered: 200 with " +
    "responseType invitations_partial (the warning); all of them: 409 already_invited / already_registered",
});

export const userUpdate = endpoint({
  name: "user.update",
  method: "PATCH",
  path: "user/update",
  query: IdQuery,
  body: Schema.Struct({ role: RoleSchema }),
  response: UserSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "not shown: changes a user's role (managers only); answers the user",
});

export const userDelete = endpoint({
  name: "user.delete",
  method: "DELETE",
  path: "user/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "not shown: deletes a user of the organisation (managers only); answers {id}",
});

export const userAll = endpoint({
  name: "user.all",
  method: "GET",
  path: "user/all",
  response: Schema.Array(UserSchema),
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "managers only (forbidden for the user role)",
});

export const userProfile = endpoint({
  name: "user.profile",
  method: "GET",
  path: "user/profile",
  response: UserProfileSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "accounts §7 'User profile fetch: not shown (path)'; path and shape are ours (market and country for the manual)",
});

export const organisationCurrent = endpoint({
  name: "organisation.current",
  method: "GET",
  path: "organisation/current",
  response: OrganisationSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "accounts §7",
});

export const VersionSchema = Schema.Struct({ version: Schema.String });

export const version = endpoint({
  name: "version",
  method: "GET",
  path: "version",
  response: VersionSchema,
  errors: commonErrors,
  auth: "none",
  carriesAccessToken: false,
  source: "accounts §7",
  ourDesign: "answer {version}; open without a token so the login page can show it",
});
