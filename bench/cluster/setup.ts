// bench:cluster's organisations, accounts and headsets, made once in a template database before anything is measured,
// and a fresh copy of it for every cluster the bench starts (CREATE DATABASE ... TEMPLATE copies files: seconds, where
// migrating, seeding and enrolling thousands of headsets again would take minutes).
//
// There is no API call that creates an organisation (the demo seed inserts its own), so the bench inserts them with
// the server's store functions, as the seed does: per organisation one manager and its headsets, each enrolled with a
// device credential (a pairing code works once, and every cluster connects the same headsets again).
import { randomBytes, scryptSync } from "node:crypto";
import pg from "pg";
import { freePort, startProcess } from "../../scripts/cluster/processes.ts";
import { insertEnrolledDevice, issueSecret } from "../../simulator/server/store/enrolment.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { insertUser } from "../../simulator/server/store/users.ts";

export const PASSWORD = "Bench-Pass-1";

/** An organisation of the bench: its manager's username and its headsets' serials. */
export interface BenchOrg {
  readonly index: number;
  readonly username: string;
  readonly serials: readonly string[];
}

export interface BenchData {
  /** The organisations of the load runs (headsets spread over them round-robin). */
  readonly load: readonly BenchOrg[];
  /** The tenancy run's organisations. */
  readonly tenancy: readonly BenchOrg[];
  /** Each serial's device credential. */
  readonly credentials: ReadonlyMap<string, string>;
}

const loadSerial = (org: number, n: number) => `VR-L${String(org).padStart(3, "0")}-${String(n).padStart(4, "0")}`;
const tenancySerial = (org: number, n: number) => `VR-T${String(org).padStart(4, "0")}-${String(n).padStart(3, "0")}`;

/** The organisation a bench serial belongs to ("L7", "T123"): a live event naming another one crossed tenants. */
export const orgOfSerial = (sn: string) => /^VR-([LT]\d+)-/.exec(sn)?.[1];
export const orgKey = (kind: "L" | "T", index: number) => `${kind}${String(index).padStart(kind === "L" ? 3 : 4, "0")}`;

/**
 * A password hash in the server's format ("scrypt$N$r$p$salt$hash") at a low cost (N = 1024, not the server's 16384):
 * a choice of ours, so a thousand logins take seconds; what is measured is the cluster after the logins. Each has its
 * own salt (the server rehashes a shared salt at full cost on login).
 */
const cheapHash = (password: string) => {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
};

const withDatabaseName = (base: string, name: string) => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

const onServer = async <T>(base: string, work: (c: pg.Client) => Promise<T>) => {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
};

/** A copy of the template; `drop` removes it (with force: the killed processes' connections may linger a moment). */
export const cloneDatabase = async (base: string, template: string, name: string) => {
  await onServer(base, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name} template ${template}`);
  });
  return {
    url: withDatabaseName(base, name),
    drop: () => onServer(base, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
};

export const dropDatabase = (base: string, name: string) =>
  onServer(base, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined);

/**
 * The template `name`: migrated and seeded by one process's first start (then stopped), with `loadOrgs` organisations
 * of `loadPerOrg` headsets and `tenancyOrgs` of `tenancyPerOrg`.
 */
export const prepareTemplate = async (
  base: string,
  name: string,
  o: { loadOrgs: number; loadPerOrg: number; tenancyOrgs: number; tenancyPerOrg: number },
): Promise<BenchData> => {
  await dropDatabase(base, name);
  await onServer(base, (c) => c.query(`create database ${name}`));
  const url = withDatabaseName(base, name);
  // Made while the process runs: its clean shutdown records each table's rows, which the next start checks (a table
  // grown behind a stopped server's back reads as damage).
  const first = await startProcess({ databaseUrl: url, port: await freePort(), number: 1, env: { DEMO_PASSWORD: PASSWORD } });
  const credentials = new Map<string, string>();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = { query: async (sql: string, params?: ReadonlyArray<unknown>) => (await c.query(sql, params as unknown[])).rows };
  const now = Date.now();
  const at = new Date(now).toISOString();
  const make = async (kind: "L" | "T", count: number, perOrg: number, serial: (org: number, n: number) => string) => {
    const orgs: BenchOrg[] = [];
    for (let k = 0; k < count; k++) {
      const org = newId();
      const username = `bench.${orgKey(kind, k).toLowerCase()}`;
      await q.query("insert into organisations (id, name, created_at) values ($1, $2, $3)", [org, `Bench ${orgKey(kind, k)}`, at]);
      await insertUser(q, {
        id: newId(),
        organisationId: org,
        username,
        email: `${username}@bench.invalid`,
        role: "manager",
        passwordHash: cheapHash(PASSWORD),
        state: "active",
        invitationTokenHash: null,
        language: "en",
        createdAt: at,
      });
      const serials = Array.from({ length: perOrg }, (_, n) => serial(k, n));
      for (const sn of serials) {
        const id = newId();
        await insertEnrolledDevice(q, org, id, sn, sn, now);
        credentials.set(sn, (await issueSecret(q, id, "credential", now)).value);
      }
      orgs.push({ index: k, username, serials });
    }
    return orgs;
  };
  try {
    await c.query("begin");
    const load = await make("L", o.loadOrgs, o.loadPerOrg, loadSerial);
    const tenancy = await make("T", o.tenancyOrgs, o.tenancyPerOrg, tenancySerial);
    await c.query("commit");
    return { load, tenancy, credentials };
  } finally {
    await c.end();
    await first.stop("SIGTERM");
  }
};

/** Logs each username in on `urlOf(i)`, `parallel` at a time; the access tokens in order. */
export const logins = async (usernames: readonly string[], urlOf: (i: number) => string, parallel = 20): Promise<string[]> => {
  const tokens: string[] = [];
  for (let i = 0; i < usernames.length; i += parallel)
    tokens.push(
      ...(await Promise.all(
        usernames.slice(i, i + parallel).map(async (username, j) => {
          const res = await fetch(`${urlOf(i + j)}/api/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username, password: PASSWORD }),
          });
          const body = (await res.json()) as { data: { accessToken?: string } };
          if (res.status !== 200 || !body.data.accessToken) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(body)}`);
          return body.data.accessToken;
        }),
      )),
    );
  return tokens;
};
