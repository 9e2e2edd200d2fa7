import type { IncomingMessage } from "node:http";
import { Failure } from "./failure.ts";

/** Longest JSON body the dev and simulator-control routes accept. */
export const MAX_DEV_BODY_CHARS = 65_536;

/** Reads a request body as UTF-8 text, refusing one longer than MAX_DEV_BODY_CHARS with a validation error on `body`. */
export const readBodyText = (req: IncomingMessage): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      text += c;
      if (text.length > MAX_DEV_BODY_CHARS) reject(new Failure("validation_error", "body: too large", "body"));
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
