import { Result, Schema, SchemaIssue } from "effect";

// Decoding at the device socket boundary: failures name the offending field ("battery.vr: Expected number").

export interface DecodeFailure {
  /** Dotted path of the first offending field ("" for the whole message). */
  readonly field: string;
  readonly message: string;
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/** The first issue of a schema error as a field path and message. */
export const describeIssue = (issue: SchemaIssue.Issue): DecodeFailure => {
  const first = formatter(issue).issues[0];
  if (!first) return { field: "", message: "invalid" };
  const field = (first.path ?? [])
      .map((p: unknown) => (typeof p === "object" && p !== null && "key" in p ? (p as { key: unknown }).key : p))
    .map(String)
    .join(".");
  return { field, message: first.message };
};

/** Decode unknown input against a schema; failures carry the offending field. */
export const decodeWith =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  (input: unknown): Result.Result<S["Type"], DecodeFailure> => {
    const r = Schema.decodeUnknownResult(schema as never)(input) as Result.Result<S["Type"], Schema.SchemaError>;
    return Result.isSuccess(r) ? Result.succeed(r.success) : Result.fail(describeIssue(r.failure.issue));
  };

/** JSON text to unknown, or a failure naming the whole message. */
export const parseJson = (text: string): Result.Result<unknown, DecodeFailure> => {
  try {
    return Result.succeed(JSON.parse(text) as unknown);
  } catch (e) {
    return Result.fail({ field: "", message: `not JSON: ${(e as Error).message}` });
  }
};

export const formatFailure = (f: DecodeFailure): string => (f.field ? `${f.field}: ${f.message}` : f.message);
