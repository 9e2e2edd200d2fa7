import { patternForLocationCount } from "../analytics/analyse-csv.ts";
import { isScreening } from "../analytics/seen.ts";
import { CsvError, csvStrategyNames, storedLocationValue, visualFieldRows } from "../analytics/visualfields-csv.ts";
import { getPattern } from "../analytics/patterns.ts";
import { Eye, Strategy } from "../model/enums.ts";
import { type FileReading, type ImportedField, importedResult, unreadable } from "./imported-field.ts";

// A visualFields CSV (core/analytics/visualfields-csv.ts: one row per field, the pattern told by the number of
// location columns) as Isopter results. The id column names the patient: the clinic's unique id itself, or through a
// mapping (id -> unique id) the importer gives. The file carries no name or birth date, so a row only ever joins a
// patient the clinic already has. Choices of ours: date and time are read as UTC (Isopter's own CSV writes them so);
// the type column names the strategy (our names; any other, such as visualFields' subject groups, is kept as the
// strategy's name with the strategy undefined); a row's key is its id, eye, date and time.

const eyes = { OD: Eye.Right, OS: Eye.Left, OU: Eye.Binocular } as const;
const strategyByCsvName = new Map(Object.entries(csvStrategyNames).map(([s, name]) => [name, Number(s) as Strategy]));

/** "00:07:12" as seconds; 0 when it does not read so. */
const seconds = (hhmmss: string): number => {
  const m = /^(\d+):(\d{2}):(\d{2})$/.exec(hhmmss.trim());
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
};

/** A catch-trial rate as a tally of 100 (the CSV gives rates only). */
const tallyOfRate = (rate: number) => ({ errors: Math.round(rate * 10_000) / 100, presentations: 100 });

export function readVisualFieldsCsv(
  text: string,
  fileName: string,
  importedAt: string,
  uniqueIdOf: (csvId: string) => string | null = (id) => id,
): FileReading {
  const fields: ImportedField[] = [];
  const refused: Array<{ item: string; reason: string }> = [];
  try {
    let line = 1;
    for (const row of visualFieldRows(text)) {
      line++;
      const item = `row ${line} (id ${row.id}, ${row.eye}, ${row.date})`;
      const uniqueId = uniqueIdOf(row.id);
      if (uniqueId === null) {
        refused.push({ item, reason: `id ${row.id} is not in the mapping file` });
        continue;
      }
      const pattern = patternForLocationCount(row.sensitivities.length);
      const typeName = row.type.trim().toLowerCase();
      const strategy = strategyByCsvName.get(typeName) ?? Strategy.Undefined;
      const screening = isScreening(strategy);
      const time = /^\d{2}:\d{2}(:\d{2})?$/.test(row.time.trim()) ? row.time.trim() : "00:00:00";
      const takenAt = new Date(`${row.date}T${time.length === 5 ? `${time}:00` : time}Z`);
      if (Number.isNaN(takenAt.getTime())) {
        refused.push({ item, reason: `date ${row.date} ${row.time} is not a real time` });
        continue;
      }
      const thresholds = row.sensitivities.map((v) => storedLocationValue(v, screening));
      fields.push({
        item,
        patient: { id: uniqueId, issuer: null, name: null, birthdate: null, sex: null },
        result: importedResult(
          {
            takenAt: takenAt.toISOString(),
            eye: eyes[row.eye],
            pattern,
            strategy,
            thresholds,
            catchTrials: { falseNegative: tallyOfRate(row.fnr), falsePositive: tallyOfRate(row.fpr), blindSpot: tallyOfRate(row.fl) },
            examinationTimeInSeconds: seconds(row.duration),
          },
          getPattern(pattern).blindSpotIndices,
          {
            kind: "imported",
            format: "visualfields-csv",
            key: `${row.id}|${row.eye}|${row.date}|${row.time}`,
            manufacturer: null,
            model: null,
            serial: null,
            software: null,
            patternName: null,
            strategyName: row.type.trim() || null,
            deviceIndices: null,
            accessionNumber: null,
            requestedProcedureId: null,
            fileName,
            importedAt,
          },
        ),
      });
    }
  } catch (e) {
    if (e instanceof CsvError) return unreadable(`not a visualFields CSV: ${e.message}`);
    throw e;
  }
  return { ok: true, fields, refused };
}
