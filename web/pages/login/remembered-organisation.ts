import { SignOnKeys } from "../../../core/client/sign-on-facet.ts";

/** The organisation whose provider this tab signed in through (session storage), so that /login, where an ended session
 * (expired, another session opened) sends the browser, offers that provider again. Read without the client. */
export const rememberedOrganisation = (): string | undefined => {
  try {
    return sessionStorage.getItem(SignOnKeys.organisation) ?? undefined;
  } catch {
    return undefined;
  }
};
