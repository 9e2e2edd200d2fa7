import type { IncomingMessage } from "node:http";
import { Failure } from "./failure.ts";

// Request bodies are read with limits enforced while reading: a body over the limit is not kept (the rest is read and
// dropped, so the client finishes sending and then reads the 413), and a JSON body nested deeper than MAX_JSON_DEPTH
// is refused before anything walks it recursively (schemas, the text-safety check).

/** Longest body a call accepts (the router reads every body, contract and development calls alike). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Deepest nesting of arrays and objects in a JSON body (the deepest contract body has 5 levels). */
export const MAX_JSON_DEPTH = 32;
/** Beyond this much, an oversized body is not drained any more: the 413 goes out and the connection is closed. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** A body over the limit: 413 with the envelope; the router closes the connection after the answer. */
export class TooLarge extends Failure {
  constructor(limit: number) {
    super("payload_too_large", `body: larger than ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`}`, "body");
  }
}

/** The client went away before its body was complete (an aborted upload): one log line, no answer to send. */
export class ClientAborted extends Error {
  constructor() {
    super("the client closed the connection before the body was complete");
  }
}

/** Reads the whole body as UTF-8 text (broken sequences become U+FFFD); rejects with TooLarge once past `limit`. */
export const readBodyText = (req: IncomingMessage, limit: number): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
      // Too big to read through: answer at once, the router closes the connection after the answer.
      req.pause();
      return reject(new TooLarge(limit));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.pause();
        reject(new TooLarge(limit));
      }
    });
    req.on("end", () => (size > limit ? reject(new TooLarge(limit)) : resolve(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", () => reject(new ClientAborted()));
    req.on("aborted", () => reject(new ClientAborted()));
    req.on("close", () => {
      if (!req.complete) reject(new ClientAborted());
    });
  });

/** The field (top-level key under `path`) whose value nests deeper than `max`, or undefined. Walks without recursion. */
export const tooDeep = (value: unknown, path: string, max = MAX_JSON_DEPTH): string | undefined => {
  const stack: Array<{ value: unknown; depth: number; field: string }> = [{ value, depth: 0, field: path }];
  while (stack.length) {
    const { value: v, depth, field } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return field;
    for (const [k, child] of Object.entries(v)) stack.push({ value: child, depth: depth + 1, field: depth === 0 ? `${path}.${k}` : field });
  }
  return undefined;
};

/** Parses a JSON body, refusing text that is not JSON or nests too deep (400 naming the field). */
export const parseJsonBody = (text: string): unknown => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Failure("validation_error", "body: not valid JSON", "body");
  }
  const deep = tooDeep(body, "body");
  if (deep) throw new Failure("validation_error", `${deep}: nested deeper than ${MAX_JSON_DEPTH} levels`, deep);
  return body;
};
