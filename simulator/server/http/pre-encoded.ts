import type { ServerResponse } from "node:http";

// An answer a handler already wrote as JSON text in the contract's wire form, for large answers built from stored
// JSON (perimetry/page: thousands of results whose jsonb PostgreSQL prints as text). Parsing that text, encoding it
// with the response schema and printing it again cost more than the query; the stored data were decoded with the
// contract when written, the client decodes the answer with it, and the contract suite decodes every answer and
// compares it with the typed calls' (tests/server/perimetry-page-suite.ts).

export class PreEncoded {
  constructor(readonly json: string) {}
}

/** Typed as the handler's data, so a handler can answer it where its Reply expects the typed value. */
export const preEncoded = <T>(json: string): T => new PreEncoded(json) as unknown as T;

/** The success envelope around pre-encoded data, with the envelope's other fields as sendOk writes them. */
export const sendPreEncoded = (
  res: ServerResponse,
  data: PreEncoded,
  extras: { readonly responseType?: string; readonly accessToken?: string },
) => {
  const text =
    `{"data":${data.json}` +
    (extras.responseType !== undefined ? `,"responseType":${JSON.stringify(extras.responseType)}` : "") +
    (extras.accessToken !== undefined ? `,"accessToken":${JSON.stringify(extras.accessToken)}` : "") +
    "}";
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
};
