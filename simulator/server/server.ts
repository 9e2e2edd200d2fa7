import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";
import { endpoints } from "../../core/model/contract/index.ts";
import { DEVICE_DISCONNECT_TIMEOUT_MS } from "../../core/device/connection.ts";
import { attemptLimits } from "./auth/limits.ts";
import { sessionStore } from "./auth/sessions.ts";
import { auditTrail } from "./audit/trail.ts";
import { chainWarnings } from "./audit/verify.ts";
import { auditPush, type AuditRepository } from "./audit/push.ts";
import { tokenSigner } from "./auth/token.ts";
import { secretKeys } from "./auth/secret-box.ts";
import type { ServerContext, ServerSettings } from "./context.ts";
import type { Database } from "./db/database.ts";
import type { HeadsetControl } from "../control/port.ts";
import { openDatabase, type Storage } from "./db/open.ts";
import { checkAtStart } from "./integrity/at-start.ts";
import { clientAddress } from "./http/client-address.ts";
import { acceptDeviceSocket, disconnectOrphans, reconnectHeld } from "./device/device-socket.ts";
import { deviceHub } from "./device/hub.ts";
import { handlers } from "./handlers/index.ts";
import { devEndpoints, devHandlers } from "./http/dev-routes.ts";
import { simulatorHandlers } from "./http/simulator-routes.ts";
import { simulatorControl } from "../../adapters/http/simulator-control.ts";
import { answerFault, RETRY_AFTER_SECONDS, sendFailure, sendJson } from "./http/envelope.ts";
import { knownSchemaVersion, schemaVersion } from "./db/migrate.ts";
import { openApiDocument } from "./http/openapi.ts";
import { apiRouter } from "./http/router.ts";
import { staticSite } from "./http/static.ts";
import { sameOrigin, setApiHeaders, setSiteHeaders } from "./http/browser-guard.ts";
import { acceptBrowserSocket } from "./live/browser-socket.ts";
import { liveHub } from "./live/hub.ts";
import { presenceBook } from "./device/presence.ts";
import { patientIndex } from "./store/patient-index.ts";
import type { Bus } from "./bus/bus.ts";
import { openBus } from "./bus/open.ts";
import { batteryHeard, liveThroughBus } from "./bus/live.ts";
import { simulatorThroughBus } from "./bus/simulator-relay.ts";
import { startWorklistPeriodic, WORKLIST_TICK_MS } from "./worklist/periodic.ts";
import { DELIVERY_TICK_MS, type MailDelivery, startDelivery } from "./notify/delivery.ts";
import { type SmtpSettings, smtpTransport } from "./notify/smtp.ts";
import { MISSED_SWEEP_MS, startMissedSweep } from "./review/missed-timer.ts";
import { knowStream } from "./live/write-window.ts";

/** How often the headsets' heard battery and last-seen are written to the database (device/presence.ts). */
const PRESENCE_FLUSH_MS = 5_000;

// The clinic server: HTTP API under /api/, the browsers' live socket /api/ws, the headsets' socket /device, and the
// built web app for every other path, all on one port.

export interface ServerOptions {
  readonly storage: Storage;
  /** NATS_URL: on PostgreSQL, the processes' bus runs over this NATS server instead of LISTEN/NOTIFY (bus/open.ts). */
  readonly natsUrl?: string | undefined;
  readonly host?: string;
  /** 0 picks a free port (tests). */
  readonly port?: number;
  /** Where the built web app is (default dist/web). */
  readonly webRoot?: string;
  readonly settings?: Partial<ServerSettings>;
  /** Clock (tests move it). */
  readonly now?: () => number;
  /** The virtual headsets running beside this server (simulator/start.ts): their control calls go under /api/dev/simulator/. */
  readonly simulator?: HeadsetControl;
  /** Development mode: the /api/dev/* routes exist (default on; `npm start` turns it off under NODE_ENV=production or
   * ISOPTER_DEV_ROUTES=off, see config.ts). */
  readonly devRoutes?: boolean;
  /** Origins besides the server's own whose browsers may call the API and open the live socket (ISOPTER_ALLOWED_ORIGINS). */
  readonly allowedOrigins?: ReadonlyArray<string>;
  /** Work on the open, migrated database before the server listens (`npm start`: the demo seed, and the web app's build
   * running beside it, so nothing answers before the app is there); when it fails, the start fails and the database
   * is closed. */
  readonly beforeListen?: (db: Database) => Promise<void>;
  /** How often the periodic worklist query looks for organisations whose period has come (worklist/periodic.ts);
   * 0 turns it off. Default 30 s. */
  readonly worklistTickMs?: number;
  /** An audit repository's FHIR base: the trail's new entries are pushed to it as AuditEvents (audit/push.ts, AUDIT_FHIR_URL). */
  readonly auditRepository?: AuditRepository | undefined;
  /** How long the start waits for the integrity pass before listening with readiness false (integrity/at-start.ts). */
  readonly integrityBudgetMs?: number;
  /** Key material for second-factor secrets (auth/secret-box.ts; `npm start`: ISOPTER_SECRETS_KEY or DATA_DIR/secret-key).
   * Absent (tests): derived from the database's token secret. A function is asked once the database is open, so a
   * DATA_DIR that cannot be used is reported as such before the key file in it is written. */
  readonly secretKey?: string | (() => string);
  /** The SMTP server the outbox's mail is sent through (notify/delivery.ts; SMTP_URL); absent: the outbox only. */
  readonly smtp?: SmtpSettings | undefined;
  /** How often delivery looks for mail due (default 5 s; 0: only when `mail.pass()` is called). */
  readonly mailTickMs?: number;
  /** How often every organisation's missed sessions are swept (review/missed-timer.ts; default 5 min; 0: off). */
  readonly missedSweepMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly db: Database;
  readonly ctx: ServerContext;
  /** SMTP delivery of the outbox, when `smtp` is set. */
  readonly mail: MailDelivery | undefined;
  /** Stops at once (tests): sockets terminated, connections cut. */
  close(): Promise<void>;
  /** SIGTERM: stops accepting, lets requests in flight finish (up to `graceMs`), closes sockets with 1001 going away,
   * then flushes and closes the database. */
  drain(graceMs?: number): Promise<void>;
}

const defaults: ServerSettings = {
  accessTokenTtlSeconds: 30 * 60,
  resetTokenTtlSeconds: 60 * 60,
  invitationTtlSeconds: 7 * 24 * 60 * 60,
  loginFailuresAllowed: 10,
  loginAddressFailuresAllowed: 100,
  loginWindowMs: 60_000,
  resetRequestsAllowed: 5,
  resetWindowMs: 15 * 60_000,
  commandTimeoutMs: 5_000,
  deviceSilenceMs: DEVICE_DISCONNECT_TIMEOUT_MS,
  publicUrl: "",
  trustedProxies: [],
};

/** What a process that lost the bus lost: its NATS connection, or its database's listening connection. */
const busLost = (kind: Bus["kind"]) => (kind === "nats" ? "NATS connection lost" : "database connection lost");

const packageVersion = (): string => {
  try {
    return (JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
};

/** The HMAC secret lives in the database, so tokens survive restarts and every server on one database agrees. */
const tokenSecret = async (db: Database): Promise<string> => {
  const fresh = randomBytes(32).toString("base64url");
  await db.transaction((tx) =>
    tx.query("insert into settings (key, value) values ('token_secret', $1) on conflict (key) do nothing", [fresh]),
  );
  return (await db.query<{ value: string }>("select value from settings where key = 'token_secret'"))[0]!.value;
};

export const startServer = async (options: ServerOptions): Promise<RunningServer> => {
  const opened = await openDatabase(options.storage);
  // Checked before anything reads it: damage refuses the start, or (a pass still running) keeps the API at 503; damage
  // a statement meets later does too (`watching`).
  const integrity = await checkAtStart(opened, options.storage, options.integrityBudgetMs).catch(async (e: unknown) => {
    await opened.close().catch(() => undefined);
    throw e;
  });
  const db = integrity.watching(opened);
  const now = options.now ?? Date.now;
  const secret = await tokenSecret(db);
  const signer = tokenSigner(secret);
  const host = options.host ?? "127.0.0.1";
  const allowedOrigins = options.allowedOrigins ?? [];
  const settingsIn = { ...defaults, ...options.settings };
  const { bus, roster } = await openBus(options.storage, db, { natsUrl: options.natsUrl }).catch(async (e: unknown) => {
    await db.close();
    throw e;
  });
  const live = liveThroughBus(liveHub(), bus);
  const devices = deviceHub(db, settingsIn.commandTimeoutMs, bus, roster, now);
  const presence = presenceBook(db, PRESENCE_FLUSH_MS);
  let settings = settingsIn;

  const sessions = sessionStore(db);
  bus.subscribe((m, fromHere) => {
    if (fromHere) return;
    // Sessions ended through another process: what this one holds of that user is dropped with the sockets' close.
    if (m.type === "sessions_ended") sessions.forget(m.userId);
    // A battery heard by another process: device/all here shows it before that process writes it (every 5 s).
    const heard = m.type === "live" ? batteryHeard(m) : undefined;
    if (heard) presence.remember(heard.deviceSn, heard.battery, heard.lastSeen);
  });
  const audit = auditTrail(db);
  // The audit chain's last entries, checked once at start (issue 33 §3): a break is logged and reported on /api/ready.
  await audit.begin();
  const warnings = await chainWarnings(db);

  const ctx: ServerContext = {
    db,
    bus,
    signer,
    live,
    devices,
    presence,
    patientIndex: patientIndex(db),
    limits: attemptLimits(db),
    audit,
    sessions,
    secretKeys: secretKeys((typeof options.secretKey === "function" ? options.secretKey() : options.secretKey) ?? secret),
    get settings() {
      return settings;
    },
    version: packageVersion(),
    now,
    async authenticate(token) {
      const check = signer.verify(token, "access", now());
      if (!check.ok) return check;
      if (!check.claims.sid) return { ok: false, reason: "token_verification_error", ended: "unknown" };
      const session = await sessions.check(check.claims.sid, now());
      if (!session.open) return { ok: false, reason: "token_verification_error", ended: session.ended };
      const user = session.user;
      if (user.id !== check.claims.sub || user.state !== "active" || user.organisationId !== check.claims.organisationId)
        return { ok: false, reason: "token_verification_error" };
      return { ok: true, claims: { ...check.claims, role: user.role, email: user.email, username: user.username ?? user.email } };
    },
    forgetUser(id) {
      sessions.forget(id);
    },
    issueAccessToken(claims) {
      return signer.sign({ ...claims, kind: "access", exp: Math.floor(now() / 1000) + settings.accessTokenTtlSeconds });
    },
  };

  // Another process died or left: its headsets are disconnected (the seeds' 4 s); this one lost its lease: it holds its own again.
  roster.onOrphans((sns) => disconnectOrphans(ctx, sns));
  roster.onRejoin(() => reconnectHeld(ctx));

  let openapi: unknown;
  // The development and simulator-control calls only in development mode, through the same router as the contract's.
  const development = options.devRoutes !== false;
  const mounted = development ? [...endpoints, ...Object.values(devEndpoints), ...Object.values(simulatorControl)] : endpoints;
  const simulatorCalls = development ? simulatorThroughBus(ctx, roster, simulatorHandlers(options.simulator), options.simulator) : {};
  const mountedHandlers = development ? { ...handlers, ...devHandlers, ...simulatorCalls } : handlers;
  const api = apiRouter(ctx, mounted, mountedHandlers as never, {
    // Operations (our design): liveness, and readiness = database reachable with every migration applied, not draining.
    "GET health": async (_req, res) => sendJson(res, 200, { data: { status: "ok", version: ctx.version } }),
    "GET ready": async (_req, res) => {
      const wanted = await knownSchemaVersion();
      if (draining)
        return sendFailure(res, "unavailable", "The server is shutting down", undefined, { "retry-after": String(RETRY_AFTER_SECONDS) });
      if (integrity.state !== "passed")
        return sendFailure(res, "unavailable", integrity.reason, undefined, { "retry-after": String(RETRY_AFTER_SECONDS) });
      if (!bus.ready)
        return sendFailure(res, "unavailable", `Not connected to the other server processes (${busLost(bus.kind)})`, undefined, {
          "retry-after": String(RETRY_AFTER_SECONDS),
        });
      const version = await schemaVersion(db); // a database away throws: 503 unavailable with Retry-After
      if (version !== wanted)
        return sendFailure(res, "unavailable", `Migrations not done (database at ${version}, expected ${wanted})`, undefined, {
          "retry-after": String(RETRY_AFTER_SECONDS),
        });
      // The bus's figures (issue 32): its kind, the subjects held, and the messages sent to and heard from other
      // processes since start (bench:cluster reads them).
      // Mail (issue 31 §3): delivered over SMTP with the queue's depth and oldest unsent age, or kept in the outbox.
      // The sockets open on this process, browsers' and headsets': how a proxy spread them.
      const mailFigures = mail ? { delivery: "smtp", ...(await mail.figures()) } : { delivery: "outbox" };
      const sockets = { browsers: browsers.clients.size, headsets: headsets.clients.size };
      sendJson(res, 200, {
        data: { status: "ready", database: db.kind, schemaVersion: version, warnings, bus: bus.figures(), sockets, mail: mailFigures },
      });
    },
    "GET openapi.json": async (_req, res) => {
      openapi ??= openApiDocument(endpoints, ctx.version);
      sendJson(res, 200, openapi);
    },
  });
  const web = staticSite(options.webRoot ?? fileURLToPath(new URL("../../dist/web", import.meta.url)));

  let draining = false;
  let mail: MailDelivery | undefined;
  /** Requests being answered: a drain makes each one the last of its keep-alive connection. */
  const inFlight = new Set<ServerResponse>();
  const lastOfConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("connection", "close");
    // Answered with keep-alive already: the connection is closed once idle, not left to its keep-alive timeout.
    else res.once("close", () => setImmediate(() => server.closeIdleConnections()));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (draining) lastOfConnection(res); // the last request of a keep-alive connection while draining
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
    if (isApi) {
      setApiHeaders(res);
      // No CORS headers are ever sent, so a browser elsewhere cannot read answers; refusing also stops it from
      // making the call at all (a form post or a simple request).
      if (!sameOrigin(req, allowedOrigins)) return sendFailure(res, "forbidden", "Cross-origin requests are refused", "origin");
      // Nothing is served from a database the integrity pass has not passed (liveness and readiness say why).
      if (integrity.state !== "passed" && url.pathname !== "/api/health" && url.pathname !== "/api/ready")
        return sendFailure(res, "unavailable", integrity.reason, undefined, { "retry-after": String(RETRY_AFTER_SECONDS) });
    } else setSiteHeaders(res, url.pathname);
    const done = isApi ? api(req, res, url) : web(req, res);
    done.catch((e: unknown) => answerFault(res, e, `${req.method} ${url.pathname}`));
  });
  server.keepAliveTimeout = 5_000;
  // A request Node cannot parse (broken framing, oversized headers) still gets the envelope before the close.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    const headers = err.code === "HPE_HEADER_OVERFLOW";
    const text = JSON.stringify({
      data: { message: headers ? "headers: too large" : "request: not valid HTTP", field: headers ? "headers" : "request" },
      responseType: "validation_error",
    });
    socket.end(
      `HTTP/1.1 ${headers ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });

  const browsers = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const headsets = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  browsers.on("connection", (socket) => acceptBrowserSocket(ctx, socket));
  headsets.on("connection", (socket, req: IncomingMessage) => acceptDeviceSocket(ctx, socket, clientAddress(req, settings.trustedProxies)));
  // Browsers of a process that lost the others would miss their events: they reconnect (the seeds' 1 s), through a
  // proxy to another process, or here once the bus is back, and read the lanes again.
  bus.onReady((ready) => {
    if (!ready) for (const client of browsers.clients) client.close(1013, bus.kind === "nats" ? "bus unavailable" : "database unavailable");
  });
  server.on("upgrade", (req, socket, head) => {
    if (!sameOrigin(req, allowedOrigins)) {
      socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      return;
    }
    // Cut off from the other processes, this one would miss their events and commands: sockets go elsewhere; and none
    // before the integrity pass has passed.
    if (!bus.ready || integrity.state !== "passed") {
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nretry-after: ${RETRY_AFTER_SECONDS}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
      );
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    const target = path === "/api/ws" ? browsers : path === "/device" ? headsets : undefined;
    if (!target) {
      socket.destroy();
      return;
    }
    target.handleUpgrade(req, socket, head, (ws) => {
      if (target === browsers) knowStream(ws, socket);
      target.emit("connection", ws, req);
    });
  });

  if (options.beforeListen)
    try {
      await options.beforeListen(db);
    } catch (e) {
      devices.closeAll();
      browsers.close();
      headsets.close();
      await presence.close().catch(() => undefined);
      await audit.flush().catch(() => undefined);
      await roster.close().catch(() => undefined);
      await bus.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      throw e;
    }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4170, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (!settingsIn.publicUrl) settings = { ...settingsIn, publicUrl: url };
  const worklist = startWorklistPeriodic(ctx, options.worklistTickMs ?? WORKLIST_TICK_MS);
  mail = options.smtp ? startDelivery(ctx, smtpTransport(options.smtp), options.mailTickMs ?? DELIVERY_TICK_MS) : undefined;
  const missedSweep = startMissedSweep(ctx, options.missedSweepMs ?? MISSED_SWEEP_MS);
  const push = options.auditRepository
    ? auditPush(db, options.auditRepository, () => settings.publicUrl, randomBytes(8).toString("hex"))
    : undefined;

  let closed = false;
  return {
    url,
    port,
    db,
    ctx,
    mail,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([worklist.stop(), missedSweep.stop(), mail?.stop()]);
      devices.closeAll();
      for (const client of browsers.clients) client.terminate();
      for (const client of headsets.clients) client.terminate();
      browsers.close();
      headsets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await presence.close();
      await audit.close();
      await push?.close();
      await roster.close();
      await bus.close();
      await integrity.recordShutdown();
      await db.close();
    },
    async drain(graceMs = 8_000) {
      if (closed) return;
      closed = true;
      draining = true;
      const background = Promise.all([worklist.stop(), missedSweep.stop(), mail?.stop()]);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve())); // no new connections from here on
      server.closeIdleConnections();
      for (const res of inFlight) lastOfConnection(res);
      for (const client of [...browsers.clients, ...headsets.clients]) client.close(1001, "server shutting down");
      const cut = setTimeout(() => {
        for (const client of [...browsers.clients, ...headsets.clients]) client.terminate();
        server.closeAllConnections();
      }, graceMs);
      await stopped;
      clearTimeout(cut);
      await background;
      devices.closeAll();
      browsers.close();
      headsets.close();
      await presence.close();
      // The trail's last events (up to FLUSH_MS of them, the requests answered during the drain included) are written
      // before the database closes, as close() does.
      await audit.close();
      await push?.close();
      await roster.close();
      await bus.close();
      await integrity.recordShutdown();
      await db.close();
    },
  };
};
