import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import Provider, { type ClientMetadata, type KoaContextWithOIDC } from "oidc-provider";

// A real OpenID provider for the tests (issue 33 item 1): oidc-provider (panva, MIT), certified for OpenID Connect,
// on 127.0.0.1 at a free port, with one confidential client. Its login interaction is ours: a form asking whose
// account to sign in as (`people`: the directory the test sets). The tests' attacker sits between Isopter and the
// provider: `tamper` rewrites the ID token in the token endpoint's answer (signed again with the provider's own key
// or with another one), as a forger on the wire or a compromised relay would.

export interface Person {
  readonly email: string;
  readonly groups: readonly string[];
  readonly name?: string;
}

export interface TestProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly people: Map<string, Person>;
  /** Lifetime of the ID tokens it issues from now on (seconds). */
  idTokenTtl: number;
  /** Rewrites the next ID tokens of the token endpoint (undefined: none). */
  tamper: ((idToken: string) => Promise<string>) | undefined;
  /** An ID token's claims changed and signed again with the provider's key ("provider") or an attacker's with the same kid. */
  resign(idToken: string, key: "provider" | "attacker", change?: (claims: JWTPayload) => JWTPayload): Promise<string>;
  /** Registers where its answers may go back to (a server's redirect and post-logout URIs). */
  allowRedirects(redirectUri: string, postLogoutUri: string): void;
  /** The callback's query string for a sign-in as `login` started at `authorizationUrl` (a browser following redirects). */
  signIn(authorizationUrl: string, login: string): Promise<string>;
  stop(): Promise<void>;
  /** Listens again on the same port after `stop` (a provider back from an outage). */
  restart(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const startTestProvider = async (): Promise<TestProvider> => {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const signing = await generateKeyPair("RS256", { extractable: true });
  const attacker = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(signing.privateKey)), kid: "provider-key", alg: "RS256", use: "sig" };
  const client: ClientMetadata & { redirect_uris: string[]; post_logout_redirect_uris: string[] } = {
    client_id: "isopter",
    client_secret: "isopter-test-client-secret-0123456789",
    redirect_uris: [],
    post_logout_redirect_uris: [],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
  };
  const people = new Map<string, Person>();
  const state: Pick<TestProvider, "idTokenTtl" | "tamper"> = { idTokenTtl: 3600, tamper: undefined };
  let provider = makeProvider();

  function makeProvider() {
    const p = new Provider(issuer, {
      clients: [client],
      jwks: { keys: [jwk] },
      cookies: { keys: ["isopter-test-cookie-key"] },
      scopes: ["openid", "email", "profile", "groups"],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
      // The claims go into the ID token (Isopter reads the role claim from it), not only into userinfo.
      conformIdTokenClaims: false,
      features: {
        devInteractions: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          // The provider's own "sign out?" page submits itself: the journey checks where it ends, not a click there.
          logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
            ctx.body = page("Signing out", `${form}<script>document.forms[0].submit()</script>`);
          },
        },
      },
      findAccount: (_ctx, id) => {
        const person = people.get(id);
        if (!person) return undefined;
        return {
          accountId: id,
          claims: () => ({ sub: id, email: person.email, email_verified: true, name: person.name ?? id, groups: [...person.groups] }),
        };
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      // biome-ignore lint/correctness/noComponentHookFactories: oidc-provider's ttl key, not a React component
      ttl: { IdToken: () => state.idTokenTtl, AccessToken: 600, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600 },
    });
    p.use(async (ctx, next) => {
      if (ctx.path.startsWith("/interaction/")) return interaction(p, ctx);
      await next();
      if (ctx.path === "/token" && ctx.method === "POST" && ctx.status === 200 && state.tamper) {
        const body = ctx.body as { id_token?: string };
        if (body.id_token) ctx.body = { ...body, id_token: await state.tamper(body.id_token) };
      }
    });
    return p;
  }

  async function interaction(
    p: Provider,
    ctx: {
      method: string;
      req: KoaContextWithOIDC["req"];
      res: KoaContextWithOIDC["res"];
      status: number;
      type: string;
      body: unknown;
      redirect(url: string): void;
    },
  ) {
    const details = await p.interactionDetails(ctx.req, ctx.res);
    if (ctx.method === "GET") {
      ctx.type = "html";
      ctx.body = page(
        "Hospital sign-in",
        `<form method="post" action="/interaction/${details.uid}"><label>Staff account <input name="login" autocomplete="username"></label> <button type="submit">Sign in</button></form>`,
      );
      return;
    }
    const text = await new Promise<string>((resolve) => {
      let data = "";
      ctx.req.on("data", (c: Buffer) => (data += c.toString()));
      ctx.req.on("end", () => resolve(data));
    });
    const login = new URLSearchParams(text).get("login")?.trim() ?? "";
    if (!people.has(login)) {
      ctx.status = 401;
      ctx.type = "html";
      ctx.body = page("Hospital sign-in", `<p role="alert">No staff account ${escapeHtml(login)}.</p>`);
      return;
    }
    const grant = new p.Grant({ accountId: login, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    const to = await p.interactionResult(ctx.req, ctx.res, { login: { accountId: login }, consent: { grantId } });
    ctx.status = 303;
    ctx.redirect(to);
  }

  server.on("request", (req, res) => provider.callback()(req, res));

  const keyOf = (which: "provider" | "attacker") => (which === "provider" ? signing.privateKey : attacker.privateKey);

  return {
    issuer,
    clientId: client.client_id,
    clientSecret: String(client.client_secret),
    people,
    get idTokenTtl() {
      return state.idTokenTtl;
    },
    set idTokenTtl(v) {
      state.idTokenTtl = v;
    },
    get tamper() {
      return state.tamper;
    },
    set tamper(v) {
      state.tamper = v;
    },
    async resign(idToken, key, change = (c) => c) {
      return new SignJWT(change(decodeJwt(idToken))).setProtectedHeader({ alg: "RS256", kid: "provider-key", typ: "JWT" }).sign(keyOf(key));
    },
    allowRedirects(redirectUri, postLogoutUri) {
      if (!client.redirect_uris.includes(redirectUri)) client.redirect_uris.push(redirectUri);
      if (!client.post_logout_redirect_uris.includes(postLogoutUri)) client.post_logout_redirect_uris.push(postLogoutUri);
      provider = makeProvider();
    },
    async signIn(authorizationUrl, login) {
      const jar = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const res = await fetch(url, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(";");
          const at = pair!.indexOf("=");
          jar.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        return res;
      };
      let res = await send(authorizationUrl);
      for (let hops = 0; hops < 10; hops++) {
        const location = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && location) {
          const next = new URL(location, issuer);
          if (next.origin !== issuer) return next.search;
          res = await send(next.href);
          continue;
        }
        const form = /action="(\/interaction\/[^"]+)"/.exec(await res.text());
        if (!form) throw new Error(`the provider answered ${res.status} without a sign-in form`);
        res = await send(new URL(form[1]!, issuer).href, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ login }).toString(),
        });
      }
      throw new Error("the provider's redirects did not end at the client");
    },
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    restart: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
  };
};
