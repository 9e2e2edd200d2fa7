// npx tsx scripts/demo-sso.ts [server URL]: with `npm start` running, a local OpenID provider for the demo clinic
// (issue 33 item 1). Starts oidc-provider on 127.0.0.1 (the tests' provider, tests/support/oidc-provider.ts), sets it
// as the demo clinic's single sign-on through the API as its manager (DEMO_PASSWORD), and prints the login link. Its
// sign-in page takes the account names demo.staff (user) and demo.manager (manager). Ctrl-C turns single sign-on off
// again and stops the provider. A development aid: the provider keeps its state in memory.
import { SSO_CALLBACK_PATH, ssoLoginPath } from "../core/model/single-sign-on.ts";
import { startTestProvider } from "../tests/support/oidc-provider.ts";

const base = (process.argv[2] ?? "http://127.0.0.1:4170").replace(/\/+$/, "");
const password = process.env.DEMO_PASSWORD;
if (!password) {
  console.error("Set DEMO_PASSWORD to the password npm start printed (the demo manager's).");
  process.exit(2);
}
const SLUG = "demo";

const api = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(`${base}/api/${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.data)}`);
  return json.data;
};
const managerToken = async () => ((await api("POST", "login", { username: "manager", password })) as { accessToken: string }).accessToken;

const provider = await startTestProvider();
provider.people.set("demo.staff", { email: "demo.staff@sso.demo.isopter.test", groups: ["isopter-staff"], name: "Demo Staff" });
provider.people.set("demo.manager", { email: "demo.manager@sso.demo.isopter.test", groups: ["isopter-managers"], name: "Demo Manager" });
provider.allowRedirects(`${base}${SSO_CALLBACK_PATH}`, `${base}${ssoLoginPath(SLUG)}`);
await api(
  "PUT",
  "sso/settings",
  {
    slug: SLUG,
    displayName: "Demo Hospital Login",
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    roleClaim: "groups",
    roleMap: { user: ["isopter-staff"], manager: ["isopter-managers"], admin: [] },
    passwordLogin: true,
  },
  await managerToken(),
);
console.log(`Provider ${provider.issuer} is the demo clinic's single sign-on.`);
console.log(`Open ${base}${ssoLoginPath(SLUG)} and sign in as demo.staff or demo.manager. Ctrl-C turns it off.`);

process.once("SIGINT", () => {
  void (async () => {
    await api("DELETE", "sso/settings", undefined, await managerToken()).catch((e: Error) => console.error(e.message));
    await provider.stop();
    console.log("Single sign-on turned off.");
    process.exit(0);
  })();
});
