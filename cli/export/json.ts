import type { ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// JSON with every index: which kind of test it is ("measurement" or "examination", the appointment variant's perimetry
// examination), the patient's identifying fields, the test as stored without its result (under "measurement" or
// "examination", by kind; an examination carries its appointmentId), the stored result as the server sent it, the age
// on the test day, and core/analytics' full analysis (normative maps, visualFields and Humphrey global indices, GHT,
// Octopus indices, reliability, gaze, Esterman, the values as the screens print them).

export function jsonOf(r: ExportRecord): unknown {
  const p = r.patient;
  const patient = { id: p.id, uniqueId: p.uniqueId, name: p.name, birthdate: p.birthdate, gender: p.gender };
  if (r.stored.kind === "examination") {
    const { result: _result, ...examination } = r.stored.examination;
    return { kind: "examination", patient, examination, result: r.result, age: r.age, analysis: r.analysis() };
  }
  const { result: _result, ...measurement } = r.stored.measurement;
  return {
    kind: "measurement",
    patient,
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
