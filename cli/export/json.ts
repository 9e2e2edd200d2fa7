import { patientSeries, progressionJson } from "./progression.ts";
import type { ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// JSON with every index: which kind of test it is ("measurement" or "examination", the appointment variant's perimetry
// examination), the patient's identifying fields, the test as stored without its result (under "measurement" or
// "examination", by kind; an examination carries its appointmentId), the stored result as the server sent it, the age
// on the test day, and core/analytics' full analysis (normative maps, visualFields and Humphrey global indices, GHT,
// Octopus indices, reliability, gaze, Esterman, the values as the screens print them), and from the writers the
// progression analysis of the eye on the pattern at its latest exported result, null on the others (progression.ts).

export function jsonOf(r: ExportRecord, progression?: unknown): unknown {
  const p = r.patient;
  const patient = { id: p.id, uniqueId: p.uniqueId, name: p.name, birthdate: p.birthdate, gender: p.gender };
  if (r.stored.kind === "examination") {
    const { result: _result, ...examination } = r.stored.examination;
    return {
      kind: "examination",
      patient,
      examination,
      result: r.result,
      age: r.age,
      analysis: r.analysis(),
      ...(progression !== undefined ? { progression } : {}),
    };
  }
  const { result: _result, ...measurement } = r.stored.measurement;
  return {
    kind: "measurement",
    patient,
    measurement,
    result: r.result,
    age: r.age,
    analysis: r.analysis(),
    ...(progression !== undefined ? { progression } : {}),
  };
}

/**
 * A JSON array written element by element (valid JSON at the end, never built whole in memory: one patient's records
 * are held until the next patient's, for the progression of each eye and pattern at its latest result).
 */
export function jsonWriter(sink: TextSink): ExportWriter {
  let count = 0;
  const series = patientSeries((r, p) => sink.write((count++ === 0 ? "[\n" : ",\n") + JSON.stringify(jsonOf(r, p && progressionJson(p)))));
  return {
    write: (r) => series.add(r),
    async end() {
      await series.flush();
      await sink.write(count === 0 ? "[]\n" : "\n]\n");
      await sink.close();
    },
  };
}

/** Newline-delimited JSON: one record per line (easy to stream into other tools). */
export function ndjsonWriter(sink: TextSink): ExportWriter {
  const series = patientSeries((r, p) => sink.write(JSON.stringify(jsonOf(r, p && progressionJson(p))) + "\n"));
  return {
    write: (r) => series.add(r),
    async end() {
      await series.flush();
      await sink.close();
    },
  };
}
