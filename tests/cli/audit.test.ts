import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { r4Issues } from "./fhir-validation.ts";
import { isopter, tempHome } from "./harness.ts";

// isopter audit --from --to --format ndjson|fhir against the in-process server (issue 15 §6).

let server: TestServer;
let home: string;
let patientId: string;
const env = () => ({ ISOPTER_HOME: home });
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer("pglite");
  const user = await login(server.url, "user");
  patientId = (await ok(server.url, "patient.all", {}, user))[0]!.id;
  await ok(server.url, "patient.get", { query: { id: patientId } }, user);
  home = tempHome();
  const run = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(run.code, run.stderr).toBe(0);
}, 120_000);
afterAll(async () => server?.drop());

describe("isopter audit", () => {
  it("ndjson: one entry a line, oldest first, the user's read of the patient among them", async () => {
    const run = await isopter(["audit", "--from", today, "--to", today, "--format", "ndjson"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const entries = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; action: string; actorName: string; patientId: string | null });
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => a - b));
    expect(entries.find((e) => e.action === "patient.get" && e.patientId === patientId)).toMatchObject({ actorName: "user" });
    expect(entries.some((e) => e.action === "login" && e.actorName === "manager")).toBe(true);
  });

  it("fhir: an R4 Bundle of AuditEvents that the FHIR validator accepts, the patient as an entity", async () => {
    const run = await isopter(["audit", "--from", today, "--to", today, "--format", "fhir", "--patient", patientId], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const bundle = JSON.parse(run.stdout);
    expect(bundle).toMatchObject({ resourceType: "Bundle", type: "collection" });
    expect(bundle.entry.length).toBeGreaterThan(0);
    const read = bundle.entry.map((e: { resource: any }) => e.resource).find((r: any) => r.subtype[0].code === "patient.get");
    expect(read).toMatchObject({
      resourceType: "AuditEvent",
      action: "R",
      outcome: "0",
      entity: [{ what: { reference: `Patient/${patientId}` } }],
    });
    expect(read.agent[0]).toMatchObject({ who: { display: "user" }, network: { address: "127.0.0.1" } });
    expect(await r4Issues(bundle)).toEqual([]);
  });

  it("refuses a bad format (exit 2), and a user who is not a manager gets the server's refusal", async () => {
    expect((await isopter(["audit", "--format", "csv"], { env: env() })).code).toBe(2);
    const other = tempHome();
    const loggedIn = await isopter(["login", "--server", server.url, "-u", "user", "--password-stdin"], {
      env: { ISOPTER_HOME: other },
      stdin: `${DEMO_PASSWORD}\n`,
    });
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    const refused = await isopter(["audit"], { env: { ISOPTER_HOME: other } });
    expect([refused.code, refused.stderr], refused.stderr).toEqual([1, expect.stringMatching(/./)]);
  });
});
