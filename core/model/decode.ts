import { Result, Schema, SchemaIssue } from "effect";

// Decoding unknown data at a boundary (HTTP bodies and answers, live events, device frames, local storage). A failure
// is data (never a throw) and names the offending field by its dotted path, e.g.
// `result.catchTrials.blindSpot.errors: Expected number, got "x"`.

export interface DecodeIssue {
  /** Dotted path of the offending field ("" for the value itself). Array indices appear as numbers: "thresholds.3". */
  readonly path: string;
  readonly message: string;
}

export interface DecodeError {
  readonly _tag: "DecodeError";
  /** Every issue found (decoding reports all errors, not only the first). */
  readonly issues: ReadonlyArray<DecodeIssue>;
  /** Path of the first issue: the field to name in a validation_error answer. */
  readonly field: string;
  /** Readable one-line summary, "path: message; path: message". */
  readonly message: string;
}

export type Decodable<T> = Schema.Codec<T, any, never, never>;

const standard = SchemaIssue.makeFormatterStandardSchemaV1();

const pathText = (path: ReadonlyArray<unknown> | undefined): string =>
  (path ?? [])
    .map((p) => (typeof p === "object" && p !== null && "key" in p ? (p as { key: unknown }).key : p))
    .map(String)
    .join(".");

/** Turn an effect schema issue into a DecodeError. */
export const toDecodeError = (issue: SchemaIssue.Issue): DecodeError => {
  const issues: DecodeIssue[] = standard(issue).issues.map((i) => ({ path: pathText(i.path), message: i.message }));
  if (issues.length === 0) issues.push({ path: "", message: "Invalid value" });
  return {
    _tag: "DecodeError",
    issues,
    field: issues[0]!.path,
    message: issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; "),
  };
};

/** A failure a schema cannot see (a rule across fields, an unknown message type), in the same shape. */
export const decodeError = (path: string, message: string): DecodeError => ({
  _tag: "DecodeError",
  issues: [{ path, message }],
  field: path,
  message: path ? `${path}: ${message}` : message,
});

const parseOptions = { errors: "all" } as const;

/** Decode unknown input (e.g. parsed JSON) against a schema. */
export const decode = <T>(schema: Decodable<T>, input: unknown): Result.Result<T, DecodeError> =>
  Result.mapError(Schema.decodeUnknownResult(schema)(input, parseOptions), (e) => toDecodeError(e.issue));

/** Encode a typed value to its wire form (JSON-ready). Fails only if the value breaks a schema check. */
export const encode = <T, E>(schema: Schema.Codec<T, E, never, never>, value: T): Result.Result<E, DecodeError> =>
  Result.mapError(Schema.encodeResult(schema)(value, parseOptions), (e) => toDecodeError(e.issue));

/** Parse JSON text; bad JSON is a DecodeError on the whole value. */
export const parseJson = (text: string): Result.Result<unknown, DecodeError> => {
  try {
    return Result.succeed(JSON.parse(text));
  } catch (e) {
    return Result.fail(decodeError("", `Not JSON: ${(e as Error).message}`));
  }
};

/** Parse JSON text then decode; bad JSON is a DecodeError on the whole value. */
export const decodeJson = <T>(schema: Decodable<T>, text: string): Result.Result<T, DecodeError> =>
  Result.flatMap(parseJson(text), (parsed) => decode(schema, parsed));
