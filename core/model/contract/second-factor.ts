import { Schema } from "effect";
import { Role } from "../enums.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Deleted, Empty, IdQuery } from "./shared.ts";
import { IdSchema } from "../ids.ts";

// A second factor for password accounts (issue 33 item 2, our design): TOTP (RFC 6238) with ten single-use recovery
// codes. A login whose password is right answers, instead of a token, a short-lived challenge when the account has a
// second factor ("verify": a code or a recovery code finishes the sign-in) or when its organisation requires one that
// the account lacks ("enrol": the account enrols, then is signed in). Outside sign-in, a user enrols and disables from
// the settings, and a manager or admin makes a second factor required for the organisation.

/** What login answers beside the challenge (in its accessToken: signed, about 5 minutes long; carried to the calls
 * below as `challenge`) when a second step is needed. */
export const SecondFactorStepSchema = Schema.Struct({ step: Schema.Literals(["verify", "enrol"]) });
export type SecondFactorStep = Schema.Schema.Type<typeof SecondFactorStepSchema>["step"];

/** A new TOTP secret waiting for its first code: the base32 secret to type and the otpauth:// URI the QR code carries. */
export const TotpEnrolmentSchema = Schema.Struct({ secret: Schema.String, uri: Schema.String });
export type TotpEnrolment = Schema.Schema.Type<typeof TotpEnrolmentSchema>;

export const SecondFactorStatusSchema = Schema.Struct({
  enrolled: Schema.Boolean,
  /** The organisation requires a second factor. */
  required: Schema.Boolean,
  recoveryCodesLeft: Schema.Number,
});
export type SecondFactorStatus = Schema.Schema.Type<typeof SecondFactorStatusSchema>;

/** Shown once: only their hashes are kept. */
export const RecoveryCodesSchema = Schema.Struct({ recoveryCodes: Schema.Array(Schema.String) });

const codeErrors = [...commonErrors, "invalid_credentials"] as const;

export const secondFactorSignIn = endpoint({
  name: "secondFactor.signIn",
  method: "POST",
  path: "login/second_factor",
  body: Schema.Struct({ challenge: Schema.String, code: Schema.String }),
  response: Schema.Struct({ accessToken: Schema.String }),
  errors: codeErrors,
  auth: "none",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "finishes a login answered with step verify: a six-digit code of the step before, at or after now, later than the last one used, or an unused recovery code; a wrong code 401 invalid_credentials, the sixth try in the login window 429 rate_limited, an expired challenge 401 token_expired",
});

export const secondFactorSignInEnrol = endpoint({
  name: "secondFactor.signInEnrol",
  method: "POST",
  path: "login/second_factor/enrol",
  body: Schema.Struct({ challenge: Schema.String }),
  response: TotpEnrolmentSchema,
  errors: [...commonErrors, "conflict"],
  auth: "none",
  carriesAccessToken: false,
  source: "our design",
  ourDesign: "a login answered with step enrol: a new secret (again on each call until confirmed); 409 conflict when already enrolled",
});

export const secondFactorSignInConfirm = endpoint({
  name: "secondFactor.signInConfirm",
  method: "POST",
  path: "login/second_factor/confirm",
  body: Schema.Struct({ challenge: Schema.String, code: Schema.String }),
  response: Schema.Struct({ accessToken: Schema.String, recoveryCodes: Schema.Array(Schema.String) }),
  errors: codeErrors,
  auth: "none",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the first code confirms the enrolment and signs in; the ten recovery codes are answered this once",
});

export const secondFactorStatus = endpoint({
  name: "secondFactor.status",
  method: "GET",
  path: "second_factor",
  response: SecondFactorStatusSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
});

export const secondFactorEnrol = endpoint({
  name: "secondFactor.enrol",
  method: "POST",
  path: "second_factor/enrol",
  response: TotpEnrolmentSchema,
  errors: [...commonErrors, "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "from the settings: a new secret waiting for its first code; 409 conflict when already enrolled (disable first)",
});

export const secondFactorConfirm = endpoint({
  name: "secondFactor.confirm",
  method: "POST",
  path: "second_factor/confirm",
  body: Schema.Struct({ code: Schema.String }),
  response: RecoveryCodesSchema,
  errors: codeErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
});

export const secondFactorDisable = endpoint({
  name: "secondFactor.disable",
  method: "POST",
  path: "second_factor/disable",
  body: Schema.Struct({ password: Schema.String }),
  response: Empty,
  errors: [...codeErrors, "forbidden", "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "asks for the password (401 invalid_credentials); 403 forbidden while the organisation requires a second factor",
});

export const secondFactorRequire = endpoint({
  name: "secondFactor.require",
  method: "PUT",
  path: "organisation/second_factor",
  body: Schema.Struct({ required: Schema.Boolean }),
  response: Schema.Struct({ required: Schema.Boolean }),
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: [Role.Manager, Role.Admin],
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "managers and admins: whether every password account of the organisation needs a second factor",
});

/** A user of the organisation with a second factor (the users page's list, for a reset). */
export const SecondFactorUserSchema = Schema.Struct({ id: IdSchema, email: Schema.String, recoveryCodesLeft: Schema.Number });

export const secondFactorUsers = endpoint({
  name: "secondFactor.users",
  method: "GET",
  path: "user/second_factor",
  response: Schema.Array(SecondFactorUserSchema),
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "managers: the organisation's users with a second factor, and their recovery codes left",
});

export const secondFactorReset = endpoint({
  name: "secondFactor.reset",
  method: "DELETE",
  path: "user/second_factor",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "managers: removes a user's second factor and recovery codes (a lost phone and lost codes); the user signs in with the password again, or enrols at the next sign-in where the organisation requires it; 404 for a user elsewhere or without one",
});
