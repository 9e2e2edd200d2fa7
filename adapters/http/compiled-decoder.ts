import { Result, Schema } from "effect";
import { SchemaJITCompiler } from "effect/schema";
import { toDecodeError, type Decodable } from "../../core/model/decode.ts";
import type { DecoderFactory } from "./http-api.ts";

// Decoders made once per schema by effect's JIT compiler (effect/schema SchemaJITCompiler): the schema becomes plain
// code, 5-10 times faster than the interpreter on a page of results (an export decodes thousands). The validation is
// the same schema's, with the same issues and field paths; where the JIT cannot compile (no eval, an unsupported node)
// effect keeps interpreting. Kept out of http-api.ts so the web bundle does not carry the compiler unless it asks.

export const compiledDecoder: DecoderFactory = <T>(schema: Decodable<T>) => {
  SchemaJITCompiler.enable(schema.ast);
  const run = Schema.decodeUnknownResult(schema);
  return (input: unknown) => Result.mapError(run(input, { errors: "all" }), (e) => toDecodeError(e.issue));
};
