import { Role } from "../model/enums.ts";
import type { SsoRoleMap } from "../model/single-sign-on.ts";

// Which Isopter role an identity provider's answer grants (issue 33 item 1). The claim the organisation names may be
// one string or a list of strings (Entra ID's "groups" and "roles", Keycloak's mapped "groups" are lists; some
// providers send one value). Our choice where the protocol says nothing: a person matching several roles gets the
// highest, since a provider's groups usually nest (admins are in the staff group too); matching is exact and
// case-sensitive, as group ids and role values are identifiers.

const order = [Role.Admin, Role.Manager, Role.User] as const;

/** The claim's values as strings; anything else (numbers, objects) counts as no value. */
export const claimValues = (claim: unknown): string[] =>
  typeof claim === "string" ? [claim] : Array.isArray(claim) ? claim.filter((v): v is string => typeof v === "string") : [];

/** The role the values grant, or null when none of them is mapped. */
export const grantedRole = (map: SsoRoleMap, claim: unknown): Role | null => {
  const values = new Set(claimValues(claim));
  return order.find((role) => map[role].some((v) => values.has(v))) ?? null;
};

/** Why no role was granted, in words a person signing in and their administrator can act on. */
export const noRoleReason = (claimName: string, claim: unknown): string => {
  const values = claimValues(claim);
  return values.length === 0
    ? `Your identity provider sent no '${claimName}' claim, so Isopter cannot tell your role. Ask your administrator to grant you access.`
    : `None of your identity provider's '${claimName}' values grants a role in Isopter. Ask your administrator to grant you access.`;
};
