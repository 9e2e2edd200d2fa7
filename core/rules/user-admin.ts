import { Role } from "../model/enums.ts";

// Who may administer which account (accounts seed §6: "Managers can access the users page: invite by e-mail, change
// roles, delete users"; "The admin route and navigation entry are for the manager role"; "Admin has its own label and
// section"). Our reading, enforced by the server and followed by the screens so nobody is offered what is refused:
// only managers administer users; the admin role is neither granted nor taken by them; nobody re-roles or deletes
// their own account; an admin account is not deleted by a manager.

export interface Account {
  readonly id: string;
  readonly role: Role;
}

export type UserAdminRefusal = "managers-only" | "admin-role" | "own-role" | "own-account" | "admin-account";

/** The messages the server answers with (403 forbidden). */
export const userAdminRefusalText: Readonly<Record<UserAdminRefusal, string>> = {
  "managers-only": "Only managers administer users",
  "admin-role": "Managers cannot grant or take the admin role",
  "own-role": "You cannot change your own role",
  "own-account": "You cannot delete your own account",
  "admin-account": "Managers cannot delete an admin",
};

/** Roles `actor` may give in an invitation or a role change. */
export const grantableRoles = (actor: Role): readonly Role[] => (actor === Role.Manager ? [Role.User, Role.Manager] : []);

export const inviteRefusal = (actor: Role, role: Role): UserAdminRefusal | null =>
  actor !== Role.Manager ? "managers-only" : grantableRoles(actor).includes(role) ? null : "admin-role";

/** Why `actor` may not give `target` the role `role`; null when allowed. Without `role`: whether its role can change at all. */
export function roleChangeRefusal(actor: Account, target: Account, role?: Role): UserAdminRefusal | null {
  if (actor.role !== Role.Manager) return "managers-only";
  if (target.id === actor.id) return "own-role";
  if (!grantableRoles(actor.role).includes(target.role) || (role !== undefined && !grantableRoles(actor.role).includes(role)))
    return "admin-role";
  return null;
}

export function deleteRefusal(actor: Account, target: Account): UserAdminRefusal | null {
  if (actor.role !== Role.Manager) return "managers-only";
  if (target.id === actor.id) return "own-account";
  if (target.role === Role.Admin) return "admin-account";
  return null;
}
