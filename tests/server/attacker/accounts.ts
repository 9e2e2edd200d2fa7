import { request } from "node:http";
import { call, DEMO_PASSWORD, login, ok, raw, type TestServer } from "../harness.ts";

// Helpers of the attacker suite: throwaway accounts (invited, signed up) and requests from other loopback addresses.

/** A fresh active account of `role` in the demo clinic: invited by the manager, signed up through the e-mailed link. */
export const newAccount = async (base: string, role: "user" | "manager" = "user") => {
  const manager = await login(base, "manager");
  const admin = await login(base, "admin");
  const email = `acct.${Math.random().toString(36).slice(2, 10)}@demo.isopter.test`;
  await ok(base, "user.invite", { body: { emails: [email], role } }, manager);
  const mail = ((await raw(base, "GET", `dev/outbox?to=${email}`, undefined, admin)).json.data as Array<{ link: string }>)[0]!;
  const [, invitationId, invitationToken] = /\/signup\/([^/]+)\/(.+)$/.exec(mail.link)!;
  const password = "Throwaway-Pass-1";
  await ok(base, "user.signup", {
    token: invitationToken!,
    body: { invitationId: invitationId!, password, invitationToken: invitationToken! },
  });
  const id = (await ok(base, "user.all", {}, manager)).find((u) => u.email === email)!.id;
  return { email, username: email, password, id, manager };
};

/** POSTs JSON to /api/<path> from a given loopback address (127.0.0.x), as a client behind another address would. */
export const postFrom = (base: string, address: string, path: string, body: unknown, token?: string) =>
  new Promise<{ status: number; responseType: string | undefined; message: string | undefined }>((resolve, reject) => {
    const url = new URL(`${base}/api/${path}`);
    const text = JSON.stringify(body);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress: address,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (data += c));
        res.on("end", () => {
          const json = JSON.parse(data) as { responseType?: string; data?: { message?: string } };
          resolve({ status: res.statusCode ?? 0, responseType: json.responseType, message: json.data?.message });
        });
      },
    );
    req.on("error", reject);
    req.end(text);
  });

export const loginFrom = (base: string, address: string, username: string, password = DEMO_PASSWORD) =>
  postFrom(base, address, "login", { username, password });

export type ServerRef = () => TestServer;
export { call };
