import { Role } from "../../../../core/model/enums.ts";
import type { ServerContext } from "../../context.ts";
import { Failure } from "../../http/failure.ts";
import { ssoSettingsOf } from "../../store/sso.ts";
import type { UserRow } from "../../store/users.ts";

// A manager may turn password sign-in off for an organisation that signs in through its identity provider (issue 33
// item 1). Our choice for the way back when the provider is gone or misconfigured: administrators keep their password
// (and an administrator may turn passwords on again or remove the provider in the settings).

export const passwordLoginClosed = (passwordLogin: boolean | undefined, role: Role): boolean =>
  passwordLogin === false && role !== Role.Admin;

/** Refuses a password login (the password was right) where the user's organisation allows only its provider. */
export const refuseClosedPasswordLogin = async (ctx: ServerContext, user: UserRow): Promise<void> => {
  const s = await ssoSettingsOf(ctx.db, user.organisationId);
  if (passwordLoginClosed(s?.passwordLogin, user.role))
    throw new Failure(
      "forbidden",
      `Your organisation signs in with ${s!.displayName}: use "Sign in with ${s!.displayName}" on its login page.`,
    );
};
