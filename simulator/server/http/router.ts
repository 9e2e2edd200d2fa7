import { clientAddress } from "./client-address.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Result } from "effect";
import { decodeRequest, encodeSuccess, type EndpointSpec, type SuccessType } from "../../../core/model/contract/index.ts";
import type { TokenClaims } from "../auth/token.ts";
import type { ServerContext } from "../context.ts";
import { answerFault, sendFailure, sendOk } from "./envelope.ts";
import { auditCall } from "../audit/calls.ts";
import { Failure, onlyRoles, refusedToken } from "./failure.ts";
import { PreEncoded, sendPreEncoded } from "./pre-encoded.ts";
import { ClientAborted, MAX_BODY_BYTES, parseJsonBody, readBodyText, TooLarge } from "./request-body.ts";
import { log } from "../log.ts";
import { unstorableText } from "./text-safety.ts";

// Mounts endpoint specs under /api/ (the contract's calls, and the development and simulator-control calls of
// dev-routes.ts and simulator-routes.ts): finds the endpoint by method and path, checks the token its `auth` asks for
// and the roles it is for, decodes query and body with its schemas (400 naming the field), runs the handler, encodes
// `data` with the response schema and adds a refreshed access token where the spec says the envelope carries one.
// Every failure is the one envelope {data: {message, field?}, responseType}.

type AnyHandler = (
  call: any,
) => Promise<{ data: unknown; responseType?: SuccessType; accessToken?: string; patientsRead?: readonly string[] }>;

const bearer = (req: IncomingMessage): string | undefined => {
  const header = req.headers.authorization;
  const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
};

export const apiRouter = (
  ctx: ServerContext,
  endpoints: ReadonlyArray<EndpointSpec>,
  handlers: Readonly<Record<string, AnyHandler>>,
  extra: Readonly<Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>>,
) => {
  const byRoute = new Map<string, EndpointSpec>();
  const paths = new Set<string>();
  for (const e of endpoints) {
    byRoute.set(`${e.method} ${e.path}`, e);
    paths.add(e.path);
  }

  const run = async (req: IncomingMessage, res: ServerResponse, spec: EndpointSpec, url: URL) => {
    // The body is read (within its limit) before anything is answered, so no answer races a client still sending.
    let text: string;
    try {
      text = await readBodyText(req, MAX_BODY_BYTES);
    } catch (e) {
      // A body over the limit is answered (413), so it is audited too (issue 33 §6: every answered call has its event).
      if (e instanceof TooLarge)
        void auditCall(ctx, {
          spec,
          claims: undefined,
          query: undefined,
          body: undefined,
          data: undefined,
          outcome: e.type,
          address: clientAddress(req, ctx.settings.trustedProxies),
        }).catch(() => undefined);
      throw e;
    }
    let claims: TokenClaims | undefined;
    let token: string | undefined;
    const seen: { query?: unknown; body?: unknown } = {};
    let reply: Awaited<ReturnType<AnyHandler>>;
    try {
      if (spec.auth !== "none") {
        token = bearer(req);
        if (!token) throw new Failure("unauthorized", "A bearer token is required");
        if (spec.auth === "bearer") {
          const check = await ctx.authenticate(token);
          if (!check.ok) throw refusedToken(check);
          claims = check.claims;
          if (spec.roles && !spec.roles.includes(claims.role)) throw onlyRoles(spec.roles);
        } else {
          const check = ctx.signer.verify(token, spec.auth === "reset-token" ? "reset" : "invitation", ctx.now());
          if (!check.ok)
            throw new Failure(check.reason, check.reason === "token_expired" ? "The link has expired" : "The link is not valid");
          claims = check.claims;
        }
      }
      const call: Record<string, unknown> = { ctx, claims, client: clientAddress(req, ctx.settings.trustedProxies) };
      if (token && spec.auth !== "bearer") call.token = token;
      const query: Record<string, string> = {};
      for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
      const body = spec.body && text.trim() !== "" ? parseJsonBody(text) : undefined;
      const unstorable = unstorableText(query, "query") ?? unstorableText(body, "body");
      if (unstorable)
        throw new Failure("validation_error", `${unstorable}: NUL characters and unpaired surrogates are not allowed`, unstorable);
      const decoded = decodeRequest(spec, { query, body });
      if (Result.isFailure(decoded)) throw new Failure("validation_error", decoded.failure.message, decoded.failure.field);
      if (spec.query) call.query = seen.query = decoded.success.query;
      if (spec.body) call.body = seen.body = decoded.success.body;
      const handler = handlers[spec.name];
      if (!handler) throw new Failure("not_found", `${spec.name} is not implemented by this server`);
      reply = await handler(call);
    } catch (e) {
      const outcome = e instanceof Failure ? e.type : "internal_error";
      void auditCall(ctx, {
        spec,
        claims,
        query: seen.query,
        body: seen.body,
        data: undefined,
        outcome,
        address: clientAddress(req, ctx.settings.trustedProxies),
      }).catch(() => undefined);
      throw e;
    }
    // Every call is audited, reads of patient data included (issue 15 §6); the trail is written in batches.
    void auditCall(ctx, {
      spec,
      claims,
      query: seen.query,
      body: seen.body,
      data: reply.data,
      patientsRead: reply.patientsRead,
      outcome: "success",
      address: clientAddress(req, ctx.settings.trustedProxies),
      accessToken: reply.accessToken,
    }).catch(() => undefined);
    const accessToken =
      reply.accessToken ??
      (spec.carriesAccessToken && spec.auth === "bearer" && claims
        ? ctx.issueAccessToken({
            sub: claims.sub,
            organisationId: claims.organisationId,
            role: claims.role,
            username: claims.username,
            email: claims.email,
            ...(claims.sid ? { sid: claims.sid } : {}),
          })
        : undefined);
    if (reply.data instanceof PreEncoded) {
      return sendPreEncoded(res, reply.data, {
        ...(reply.responseType ? { responseType: reply.responseType } : {}),
        ...(accessToken ? { accessToken } : {}),
      });
    }
    const encoded = encodeSuccess(spec, reply.data, {
      ...(reply.responseType ? { responseType: reply.responseType } : {}),
      ...(accessToken ? { accessToken } : {}),
    });
    if (Result.isFailure(encoded)) throw new Error(`${spec.name}: answer does not match the contract: ${encoded.failure.message}`);
    sendOk(res, encoded.success);
  };

  /** Handles /api/... requests; answers false when the path is not under /api/. */
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const path = url.pathname.replace(/^\/api\/?/, "").replace(/\/+$/, "");
    try {
      const extraHandler = extra[`${req.method} ${path}`];
      if (extraHandler) return await extraHandler(req, res);
      const spec = byRoute.get(`${req.method} ${path}`);
      if (!spec) {
        if (paths.has(path)) return sendFailure(res, "not_found", `${req.method} ${path} is not a call of this API`, "method");
        return sendFailure(res, "not_found", `No call ${path} in this API`, "path");
      }
      await run(req, res, spec, url);
    } catch (e) {
      if (e instanceof ClientAborted)
        return log.info("request_aborted", { request: `${req.method} ${url.pathname}`, received: req.socket.bytesRead });
      if (res.headersSent) return;
      if (e instanceof TooLarge) {
        // The body was read through (or is too big to): answer, then close the connection cleanly.
        res.once("finish", () => req.socket.end());
        return sendFailure(res, e.type, e.message, e.field, { connection: "close" });
      }
      if (e instanceof Failure)
        return sendFailure(res, e.type, e.message, e.field, e.type === "rate_limited" ? { "retry-after": "60" } : {});
      answerFault(res, e, `${req.method} ${url.pathname}`);
    }
  };
};
