import type { ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// JSON with every index: the patient's identifying fields, the measurement (without its result), the stored result
// as the server sent it, the age on the test day, and core/analytics' full analysis (normative maps, visualFields and
// Humphrey global indices, GHT, Octopus indices, reliability, gaze, Esterman, the values as the screens print them).

export function jsonOf(r: ExportRecord): unknown {
  const { result: _result, ...measurement } = r.measurement;
  const p = r.patient;
  return {
    patient: { id: p.id, uniqueId: p.uniqueId, name: p.name, birthdate: p.birthdate, gender: p.gender },
    measurement,
    result: r.result,
    age: r.age,
    analysis: r.analysis(),
  };
}

/** A JSON array written element by element (valid JSON at the end, never built whole in memory). */
export function jsonWriter(sink: TextSink): ExportWriter {
  let count = 0;
  return {
    async write(r) {
      await sink.write((count++ === 0 ? "[\n" : ",\n") + JSON.stringify(jsonOf(r)));
    },
    async end() {
      await sink.write(count === 0 ? "[]\n" : "\n]\n");
      await sink.close();
    },
  };
}

/** Newline-delimited JSON: one record per line (easy to stream into other tools). */
export function ndjsonWriter(sink: TextSink): ExportWriter {
  return {
    write: (r) => sink.write(JSON.stringify(jsonOf(r)) + "\n"),
    end: () => sink.close(),
  };
}
