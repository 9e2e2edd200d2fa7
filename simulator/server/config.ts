import { isIP } from "node:net";
import { resolve } from "node:path";
import { readSmtpSettings, type SmtpSettings, SmtpSettingError } from "./notify/smtp.ts";

// The start command's configuration, from the environment (README documents each):
//   PORT (4170), HOST (127.0.0.1), DATA_DIR (./.data), DATABASE_URL (PostgreSQL instead of PGlite),
//   NATS_URL (the processes' bus over this NATS server instead of LISTEN/NOTIFY; needs DATABASE_URL),
//   HEADSETS (4), SPEED (1), DEMO_PASSWORD (generated and printed when unset),
//   ISOPTER_DEV_ROUTES (on, or off when NODE_ENV=production), ISOPTER_ALLOWED_ORIGINS (none),
//   HEADSET_URLS (the virtual headsets' device socket addresses; default this process's own /device),
//   ISOPTER_TRUSTED_PROXIES (none), ISOPTER_SECRETS_KEY (the key material sealing second-factor secrets; default a
//   random key kept in DATA_DIR/secret-key: auth/secret-box.ts), AUDIT_FHIR_URL and AUDIT_FHIR_AUTHORIZATION (an audit
//   repository's FHIR base the audit trail is pushed to, and the Authorization header it asks for: audit/push.ts; none),
//   SMTP_URL, SMTP_USER, SMTP_PASSWORD, SMTP_FROM (the SMTP server the outbox's mail is sent through: notify/smtp.ts;
//   none: development mode, the mail stays in the outbox).

export interface StartConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** A NATS server (nats://host:port) the processes on DATABASE_URL talk over; none: LISTEN/NOTIFY on the database. */
  readonly natsUrl: string | undefined;
  readonly headsets: number;
  readonly speed: number;
  readonly demoPassword: string | undefined;
  /** Development mode: the /api/dev/* routes (outbox, organisation switch, simulator control) exist. */
  readonly devRoutes: boolean;
  /** Browser origins besides the server's own allowed to call the API (a reverse proxy's public address). */
  readonly allowedOrigins: ReadonlyArray<string>;
  /** Where the virtual headsets connect (several processes of a cluster, or a proxy); empty: this process's /device. */
  readonly headsetUrls: ReadonlyArray<string>;
  /** Reverse proxies (their addresses) whose X-Forwarded-For names the caller. */
  readonly trustedProxies: ReadonlyArray<string>;
  /** An audit repository's FHIR base URL (audit/push.ts) and the Authorization header value it asks for. */
  readonly auditFhirUrl: string | undefined;
  readonly auditFhirAuthorization: string | undefined;
  /** The SMTP server mail is delivered through (notify/smtp.ts); undefined: the outbox only (development mode). */
  readonly smtp: SmtpSettings | undefined;
}

export class ConfigError extends Error {}

const integer = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return n;
};

export const readConfig = (env: NodeJS.ProcessEnv): StartConfig => {
  const speedRaw = env.SPEED?.trim();
  const speed = speedRaw ? Number(speedRaw) : 1;
  if (!Number.isFinite(speed) || speed <= 0 || speed > 1000)
    throw new ConfigError(`SPEED must be a number above 0 (at most 1000), got '${env.SPEED}'`);
  const url = env.DATABASE_URL?.trim();
  if (url && !/^postgres(ql)?:\/\//.test(url)) throw new ConfigError("DATABASE_URL must start with postgres:// or postgresql://");
  const natsUrl = env.NATS_URL?.trim();
  if (natsUrl) {
    let ok = false;
    try {
      const u = new URL(natsUrl);
      ok = u.protocol === "nats:" && u.hostname !== "";
    } catch {}
    if (!ok) throw new ConfigError(`NATS_URL must be a NATS server's address such as nats://127.0.0.1:4222, got '${natsUrl}'`);
    if (!url)
      throw new ConfigError("NATS_URL needs DATABASE_URL: the bus joins processes sharing one PostgreSQL (on PGlite a process is alone)");
  }
  const dev = env.ISOPTER_DEV_ROUTES?.trim().toLowerCase();
  if (dev && dev !== "on" && dev !== "off") throw new ConfigError(`ISOPTER_DEV_ROUTES must be on or off, got '${env.ISOPTER_DEV_ROUTES}'`);
  const origins = (env.ISOPTER_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    let ok = false;
    try {
      ok = new URL(o).origin === o;
    } catch {}
    if (!ok) throw new ConfigError(`ISOPTER_ALLOWED_ORIGINS must list origins such as https://clinic.example, got '${o}'`);
  }
  const headsetUrls = (env.HEADSET_URLS ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  for (const u of headsetUrls) {
    let ok = false;
    try {
      ok = ["ws:", "wss:"].includes(new URL(u).protocol);
    } catch {}
    if (!ok) throw new ConfigError(`HEADSET_URLS must list device socket addresses such as ws://127.0.0.1:4170/device, got '${u}'`);
  }
  const trustedProxies = (env.ISOPTER_TRUSTED_PROXIES ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  for (const a of trustedProxies)
    if (isIP(a) === 0) throw new ConfigError(`ISOPTER_TRUSTED_PROXIES must list IP addresses such as 127.0.0.1, got '${a}'`);
  const auditUrl = env.AUDIT_FHIR_URL?.trim();
  if (auditUrl) {
    let ok = false;
    try {
      ok = ["http:", "https:"].includes(new URL(auditUrl).protocol);
    } catch {}
    if (!ok)
      throw new ConfigError(`AUDIT_FHIR_URL must be an audit repository's FHIR base such as https://arr.example/fhir, got '${auditUrl}'`);
  }
  let smtp: SmtpSettings | undefined;
  try {
    smtp = readSmtpSettings(env);
  } catch (e) {
    throw e instanceof SmtpSettingError ? new ConfigError(e.message) : e;
  }
  return {
    smtp,
    auditFhirUrl: auditUrl || undefined,
    auditFhirAuthorization: env.AUDIT_FHIR_AUTHORIZATION?.trim() || undefined,
    headsetUrls,
    trustedProxies,
    devRoutes: dev ? dev === "on" : env.NODE_ENV !== "production",
    allowedOrigins: origins,
    port: integer("PORT", env.PORT, 4170, 0, 65535),
    host: env.HOST?.trim() || "127.0.0.1",
    dataDir: resolve(env.DATA_DIR?.trim() || ".data"),
    databaseUrl: url || undefined,
    natsUrl: natsUrl || undefined,
    headsets: integer("HEADSETS", env.HEADSETS, 4, 0, 10_000),
    speed,
    demoPassword: env.DEMO_PASSWORD || undefined,
  };
};
