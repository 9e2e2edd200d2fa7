import { afterAll, beforeAll, expect, it } from "vitest";
import { codeFor } from "../server/second-factor-suite.ts";
import { DEMO_PASSWORD, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { isopter, tempHome } from "./harness.ts";

// isopter login for an account with a second factor (issue 33 item 2): the password alone is refused with what to
// give; --code with a code of the authenticator (computed here from the secret, RFC 6238) logs in.

let server: TestServer;
let secret: string;
beforeAll(async () => {
  server = await startTestServer("pglite");
  const manager = await login(server.url, "manager");
  secret = (await ok(server.url, "secondFactor.enrol", {}, manager)).secret;
  await ok(server.url, "secondFactor.confirm", { body: { code: codeFor(secret, server.ctx.now()) } }, manager);
}, 120_000);
afterAll(async () => server?.drop());

it("without --code the login says a code is needed and keeps no token; with the next step's code it logs in", async () => {
  const env = { ISOPTER_HOME: tempHome() };
  const args = ["login", "--server", server.url, "-u", "manager", "--password-stdin"];
  const refused = await isopter(args, { env, stdin: `${DEMO_PASSWORD}\n` });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/second factor: give --code/);
  expect((await isopter(["profiles", "--json"], { env })).stdout).not.toMatch(/"loggedIn":true/);
  const wrong = await isopter([...args, "--code", "000000" === codeFor(secret, server.ctx.now(), 1) ? "111111" : "000000"], {
    env,
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(wrong.code).toBe(3);
  const right = await isopter([...args, "--code", codeFor(secret, server.ctx.now(), 1)], { env, stdin: `${DEMO_PASSWORD}\n` });
  expect(right.code, right.stderr).toBe(0);
  expect((await isopter(["profiles", "--json"], { env })).stdout).toMatch(/"loggedIn":true/);
});
