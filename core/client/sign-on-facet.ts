import type { SsoLoginOptions, SsoSettings, SsoSettingsBody } from "../model/single-sign-on.ts";
import { StorageKeys, type Api } from "../ports.ts";
import type { FacetContext } from "./facet-context.ts";
import type { Reads } from "./reads.ts";
import type { SessionFacet } from "./session-facet.ts";

// The sign-on facet (issue 33 item 1): single sign-on through the organisation's identity provider. The login page
// of /login/<organisation> asks what to offer and begins a sign-in (the browser goes to the provider); the callback
// page completes it (a session like a login's); logout of such a session also ends the provider's session, when it
// offers that, by sending the browser to its end-session URL. A manager's settings are a read (sso.settings).

/** Session-storage keys beyond the seeds' (our design): the sign-in under way and whether this session came from it. */
export const SignOnKeys = {
  /** The browser's binding of the sign-in under way (sent back with the callback: a flow completes only here). */
  binding: "ssoBinding",
  /** The login link's organisation of the sign-in under way or done (the callback page's way back). */
  organisation: "ssoOrganisation",
  /** "1" while the session was opened through the provider (logout then ends the provider's session too). */
  session: "ssoSession",
} as const;

export interface SignOnFacet {
  /** What /login/<organisation> offers. Rejects with the ApiError (404: no such login link). */
  options(organisation: string): Promise<SsoLoginOptions>;
  /** Begins a sign-in; resolves with the provider's URL to send the browser to. Rejects with the ApiError (503: the
   * provider does not answer; its message says whether passwords still work). */
  begin(organisation: string, origin: string): Promise<string>;
  /** Completes the sign-in the provider sent the browser back from (`callback`: the page's query string), opening the
   * session. Rejects with the ApiError: 401 invalid_credentials (forged, expired or replayed), 403 no role. */
  complete(callback: string): Promise<void>;
  /** The organisation of the sign-in under way or done in this tab (the callback page's link back), if any. */
  readonly organisation: string | null;
  /** Logs out; for a session opened through the provider, resolves with the provider's end-session URL (or null). */
  logout(): Promise<string | null>;
  /** Stores the organisation's provider (sso.settingsUpdate) and reads the settings again. */
  saveSettings(body: SsoSettingsBody): Promise<SsoSettings>;
  /** Turns single sign-on off for the organisation. */
  removeSettings(): Promise<void>;
}

export function createSignOnFacet(ctx: FacetContext, rawApi: Api, session: SessionFacet, reads: Pick<Reads, "reload">): SignOnFacet {
  const { storage } = ctx;
  return {
    options: (organisation) => ctx.api.call("sso.loginOptions", { query: { organisation } }),
    async begin(organisation, origin) {
      const begun = await ctx.api.call("sso.begin", { body: { organisation, redirectOrigin: origin } });
      storage.session.set(SignOnKeys.binding, begun.binding);
      storage.session.set(SignOnKeys.organisation, organisation);
      return begun.authorizationUrl;
    },
    async complete(callback) {
      const binding = storage.session.get(SignOnKeys.binding) ?? "";
      storage.session.remove(SignOnKeys.binding);
      const { accessToken } = await ctx.api.call("sso.complete", { body: { callback, binding } });
      // The session resumes from the stored token as after a reload (socket, token check).
      storage.session.set(StorageKeys.session.accessToken, accessToken);
      storage.session.set(SignOnKeys.session, "1");
      await session.start();
      ctx.events.emit("navigate", { to: "home" });
    },
    get organisation() {
      return storage.session.get(SignOnKeys.organisation);
    },
    async logout() {
      let url: string | null = null;
      if (storage.session.get(SignOnKeys.session) === "1") {
        storage.session.remove(SignOnKeys.session);
        url = await rawApi.call("sso.logout", {}).then(
          (a) => a.endSessionUrl,
          () => null,
        );
      }
      // The local logout (and the seeds' logout call, which the ended session answers 401: it changes nothing).
      await session.logout();
      return url;
    },
    async saveSettings(body) {
      const saved = await ctx.api.call("sso.settingsUpdate", { body });
      await reads.reload("sso.settings");
      return saved;
    },
    async removeSettings() {
      await ctx.api.call("sso.settingsDelete", {});
      await reads.reload("sso.settings");
    },
  };
}
