import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Role } from "../../core/model/enums.ts";
import { deleteRefusal, grantableRoles, inviteRefusal, roleChangeRefusal } from "../../core/rules/user-admin.ts";

// "Managers can access the users page: invite by e-mail, change roles, delete users"; "The admin route and navigation
// entry are for the manager role" (accounts seed §6). The server refuses with these rules and the users page offers only
// what they allow, so a manager never meets a 403 there.

const roles = fc.constantFrom(Role.User, Role.Manager, Role.Admin);
const account = fc.record({ id: fc.constantFrom("a", "b", "c"), role: roles });

describe("user administration rules", () => {
  it("only managers administer users, and they grant user or manager", () => {
    expect(grantableRoles(Role.Manager)).toEqual([Role.User, Role.Manager]);
    expect(grantableRoles(Role.Admin)).toEqual([]);
    expect(inviteRefusal(Role.Manager, Role.Admin)).toBe("admin-role");
    expect(inviteRefusal(Role.User, Role.User)).toBe("managers-only");
    expect(inviteRefusal(Role.Manager, Role.Manager)).toBeNull();
  });

  it("never lets anyone re-role or delete their own account, or a manager touch an admin", () => {
    fc.assert(
      fc.property(account, account, roles, (actor, target, role) => {
        const change = roleChangeRefusal(actor, target, role);
        const del = deleteRefusal(actor, target);
        if (actor.role !== Role.Manager) return change === "managers-only" && del === "managers-only";
        if (actor.id === target.id) return change === "own-role" && del === "own-account";
        if (target.role === Role.Admin) return change === "admin-role" && del === "admin-account";
        return (change === null) === (role !== Role.Admin) && del === null;
      }),
    );
  });

  it("a role change offered at all (no new role given) means some grantable role is allowed", () => {
    fc.assert(
      fc.property(
        account,
        account,
        (actor, target) =>
          roleChangeRefusal(actor, target) !== null ||
          grantableRoles(actor.role).every((r) => roleChangeRefusal(actor, target, r) === null),
      ),
    );
  });
});
