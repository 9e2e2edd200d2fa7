import { Result, type Schema } from "effect";
import { decode } from "../../core/model/decode.ts";
import { badArguments } from "../exit-codes.ts";

// A control request is checked with the same schema the server decodes it with (adapters/http/simulator-control.ts)
// before it leaves: a bad argument is exit 2 naming the argument as typed on the command line.

export function checkedRequest<T>(
  schema: Schema.Codec<T, any, never, never>,
  value: unknown,
  argumentOf: Readonly<Record<string, string>>,
): T {
  const decoded = decode(schema, value);
  if (Result.isSuccess(decoded)) return decoded.success;
  const issue = decoded.failure.issues[0]!;
  const name = argumentOf[issue.path] ?? (issue.path || "argument");
  const given = issue.path
    .split(".")
    .reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), value);
  throw badArguments(`${name}: ${issue.message}${given === undefined ? "" : `, got ${JSON.stringify(given)}`}`);
}
