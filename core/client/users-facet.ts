import type { UserInviteAnswer } from "../model/contract/index.ts";
import type { Role } from "../model/enums.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";

// The users facet (accounts seed §2 "Users"): invite, re-role and delete accounts, each one command that reads the
// accounts list (CacheKey.Users, read through `client.cache`) again after it; the server decides who may do what
// (core/rules/user-admin.ts), a refusal rejects.

export interface UsersFacet {
  /** Invites the addresses with one role; the list is read again. Resolves with the server's answer (who was already
   * invited or registered). Rejects with the ApiError (e.g. all already invited or registered). */
  invite(emails: readonly string[], role: Role): Promise<UserInviteAnswer>;
  /** Gives an account another role; the list is read again. Rejects with the ApiError. */
  changeRole(id: string, role: Role): Promise<void>;
  /** Deletes an account; the list is read again. Rejects with the ApiError. */
  remove(id: string): Promise<void>;
}

export function createUsersFacet(ctx: FacetContext): UsersFacet {
  const reread = () => void ctx.cache.refetch(CacheKey.Users);
  return {
    async invite(emails, role) {
      const answer = await ctx.api.call("user.invite", { body: { emails: [...emails], role } });
      reread();
      return answer;
    },
    async changeRole(id, role) {
      await ctx.api.call("user.update", { query: { id }, body: { role } });
      reread();
    },
    async remove(id) {
      await ctx.api.call("user.delete", { query: { id } });
      reread();
    },
  };
}
