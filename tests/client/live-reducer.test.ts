import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { CacheKey, type DataOf, type ParamsOf } from "../../core/client/cache-keys.ts";
import { getEntry, setEntry, emptySnapshot, type CacheSnapshot } from "../../core/client/cache-snapshot.ts";
import { reduceLiveEvent, measurementReadyNotice, resultRoute, type LiveOutcome } from "../../core/client/live-reducer.ts";
import { LiveEventType, LiveOperation } from "../../core/model/enums.ts";
import { decodeLiveEvent, type LiveEvent } from "../../core/model/live.ts";
import { liveEvent } from "../model/arbitraries.ts";
import { appointment, device, examination, measurement, patient, progress, result } from "./fixtures.ts";

// Reducer tests for every live event type and operation (scheduling seed §4 "Live events", accounts seed §4).

const put = <K extends CacheKey>(s: CacheSnapshot, key: K, params: ParamsOf<K>, data: DataOf<K>) =>
  setEntry(s, { key, params, status: "success", data, error: undefined });
const data = <K extends CacheKey>(s: CacheSnapshot, key: K, params: ParamsOf<K>) => getEntry(s, key, params)?.data;
/** An event as the live socket hands it over: decoded by its type and operation. */
const ev = (type: LiveEvent["type"], operation: LiveEvent["operation"], payload: unknown): LiveEvent => {
  const decoded = decodeLiveEvent({ type, operation, data: payload });
  if (Result.isFailure(decoded)) throw new Error(`${type}/${operation}: ${decoded.failure.message}`);
  return decoded.success;
};
const reduce = (s: CacheSnapshot, e: LiveEvent, viewedPatientId: string | null = null): LiveOutcome =>
  reduceLiveEvent(s, e, { viewedPatientId });
const ids = (list: unknown) => (list as Array<{ id: string }>).map((x) => x.id);
const T = LiveEventType;
const Op = LiveOperation;

describe("device events", () => {
  const base = put(emptySnapshot, CacheKey.Devices, {}, [device("SN1"), device("SN2")]);

  it("'insert or restore adds'", () => {
    for (const op of [Op.Insert, Op.Restore])
      expect(ids(data(reduce(base, ev(T.Device, op, device("SN3"))).snapshot, CacheKey.Devices, {}))).toEqual([
        "dev-SN1",
        "dev-SN2",
        "dev-SN3",
      ]);
  });

  it("'update replaces' the changed fields; 'A status event from the live socket sets the device's status'", () => {
    const out = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN2", status: "playing", alias: "Room 2", connection: "CONNECTED" }));
    const d = (data(out.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[1]!;
    expect(d).toMatchObject({ alias: "Room 2", status: "playing" });
    expect(out.effects).toEqual([
      { kind: "device-status", deviceSn: "SN2", status: "playing" },
      { kind: "connection", deviceSn: "SN2", connection: "CONNECTED" },
    ]);
  });

  it("an update repeating what the device shows keeps the device object (nothing re-renders); a change makes a new one", () => {
    const before = (data(base, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!;
    const same = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN1", battery: structuredClone(before.battery), alias: before.alias }));
    expect((data(same.snapshot, CacheKey.Devices, {}) as unknown[])[0]).toBe(before);
    const drained = { ...before.battery, vr: { ...before.battery.vr, level: (before.battery.vr.level ?? 50) - 1 } };
    const changed = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN1", battery: drained }));
    const after = (data(changed.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!;
    expect(after).not.toBe(before);
    expect(after.battery).toEqual(drained);
    expect((data(changed.snapshot, CacheKey.Devices, {}) as unknown[])[1]).toBe((data(base, CacheKey.Devices, {}) as unknown[])[1]);
  });

  it("'an unknown value falls back to not connected'", () => {
    const out = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN1", status: "exploded" }));
    expect(out.effects).toEqual([{ kind: "device-status", deviceSn: "SN1", status: "notconnected" }]);
  });

  it("'trash or delete removes'", () => {
    for (const op of [Op.Trash, Op.Delete])
      expect(ids(data(reduce(base, ev(T.Device, op, { id: "dev-SN1" })).snapshot, CacheKey.Devices, {}))).toEqual(["dev-SN2"]);
  });

  it("'Device transfer in or out refetches devices.'", () => {
    for (const op of [Op.DeviceTransferIn, Op.DeviceTransferOut]) {
      const out = reduce(base, ev(T.Device, op, { deviceSn: "SN1" }));
      expect(out.effects).toEqual([{ kind: "refetch", key: CacheKey.Devices }]);
      expect(out.snapshot).toBe(base);
    }
  });
});

describe("patient events ('Patient search cache updates on patient update, insert, trash/delete')", () => {
  const search = { name: "pat", birthdate: null };
  let base = put(emptySnapshot, CacheKey.Patients, {}, [patient("p1"), patient("p2")]);
  base = put(base, CacheKey.Patients, { id: "p1" }, patient("p1"));
  base = put(base, CacheKey.PatientSearch, search, { entries: [patient("p1")], remaining: 0, page: 0 });
  base = put(base, CacheKey.TrashedPatients, {}, [patient("p9", { trashedAt: "2026-11-02T00:00:00.000Z" })]);

  it("insert adds to the list and asks the search again", () => {
    const out = reduce(base, ev(T.Patient, Op.Insert, patient("p3")));
    expect(ids(data(out.snapshot, CacheKey.Patients, {}))).toEqual(["p1", "p2", "p3"]);
    expect(out.effects).toEqual([{ kind: "refetch", key: CacheKey.PatientSearch }]);
  });

  it("restore adds back and leaves the bin", () => {
    const out = reduce(base, ev(T.Patient, Op.Restore, patient("p9")));
    expect(ids(data(out.snapshot, CacheKey.Patients, {}))).toContain("p9");
    expect(ids(data(out.snapshot, CacheKey.TrashedPatients, {}))).toEqual([]);
  });

  it("update replaces in the list, the single patient and the search", () => {
    const renamed = patient("p1", { name: "Renamed" });
    const out = reduce(base, ev(T.Patient, Op.Update, renamed));
    expect((data(out.snapshot, CacheKey.Patients, {}) as unknown as Array<{ name: string }>)[0]!.name).toBe("Renamed");
    expect((data(out.snapshot, CacheKey.Patients, { id: "p1" }) as { name: string }).name).toBe("Renamed");
    expect(data(out.snapshot, CacheKey.PatientSearch, search)!.entries[0]!.name).toBe("Renamed");
  });

  it("trash removes from lists and search, refreshes the bin; 'A trashed patient being viewed sends the user home.'", () => {
    const out = reduce(base, ev(T.Patient, Op.Trash, { id: "p1" }), "p1");
    expect(ids(data(out.snapshot, CacheKey.Patients, {}))).toEqual(["p2"]);
    expect(data(out.snapshot, CacheKey.PatientSearch, search)!.entries).toEqual([]);
    expect(out.effects).toEqual([
      { kind: "refetch", key: CacheKey.TrashedPatients },
      { kind: "navigate", to: "home" },
    ]);
    expect(reduce(base, ev(T.Patient, Op.Trash, { id: "p2" }), "p1").effects).not.toContainEqual({ kind: "navigate", to: "home" });
  });

  it("delete removes for good, from the bin too", () => {
    const out = reduce(base, ev(T.Patient, Op.Delete, { id: "p9" }));
    expect(ids(data(out.snapshot, CacheKey.TrashedPatients, {}))).toEqual([]);
    expect(out.effects).toEqual([]);
  });
});

describe("measurement events", () => {
  let base = put(emptySnapshot, CacheKey.Devices, {}, [
    device("SN1", { perimetries: [measurement("m1"), measurement("m2")] }),
    device("SN2"),
  ]);
  base = put(base, CacheKey.Measurements, { patientId: "p1" }, [measurement("m1"), measurement("m2")]);
  base = put(base, CacheKey.Measurements, { patientId: "p2" }, []);
  base = put(base, CacheKey.TrashedMeasurements, {}, [measurement("m9")]);
  const lane = (s: CacheSnapshot, i = 0) => ids((data(s, CacheKey.Devices, {}) as ReturnType<typeof device>[])[i]!.perimetries);

  it("insert adds to its patient's list and to its device's lane", () => {
    const out = reduce(base, ev(T.Measurement, Op.Insert, measurement("m3", { deviceSn: "SN2" })));
    expect(ids(data(out.snapshot, CacheKey.Measurements, { patientId: "p1" }))).toEqual(["m1", "m2", "m3"]);
    expect(ids(data(out.snapshot, CacheKey.Measurements, { patientId: "p2" }))).toEqual([]);
    expect(lane(out.snapshot, 1)).toEqual(["m3"]);
  });

  it("restore adds and leaves the bin", () => {
    const out = reduce(base, ev(T.Measurement, Op.Restore, measurement("m9")));
    expect(ids(data(out.snapshot, CacheKey.TrashedMeasurements, {}))).toEqual([]);
    expect(lane(out.snapshot)).toEqual(["m1", "m2", "m9"]);
  });

  it("update replaces in lists and lanes", () => {
    const out = reduce(base, ev(T.Measurement, Op.Update, measurement("m2", { displayName: "Changed" })));
    expect(
      (data(out.snapshot, CacheKey.Measurements, { patientId: "p1" }) as unknown as Array<{ displayName: string }>)[1]!.displayName,
    ).toBe("Changed");
    expect((data(out.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!.perimetries[1]!.displayName).toBe("Changed");
  });

  it("trash removes from list and lane and refreshes the bin; delete removes from the bin", () => {
    const trashed = reduce(base, ev(T.Measurement, Op.Trash, { id: "m1" }));
    expect(lane(trashed.snapshot)).toEqual(["m2"]);
    expect(ids(data(trashed.snapshot, CacheKey.Measurements, { patientId: "p1" }))).toEqual(["m2"]);
    expect(trashed.effects).toEqual([{ kind: "refetch", key: CacheKey.TrashedMeasurements }]);
    const deleted = reduce(base, ev(T.Measurement, Op.Delete, { id: "m9" }));
    expect(ids(data(deleted.snapshot, CacheKey.TrashedMeasurements, {}))).toEqual([]);
  });

  it("'Measurement result ready: removes the card from the device list and shows a success notice 'measurement ready' for 10 s with an action to open the patient's result'", () => {
    const done = measurement("m1", { result: result("m1", "p1") });
    const out = reduce(base, ev(T.Measurement, Op.MeasurementResultReady, done));
    expect(lane(out.snapshot)).toEqual(["m2"]);
    expect(
      (data(out.snapshot, CacheKey.Measurements, { patientId: "p1" }) as unknown as Array<{ result: unknown }>)[0]!.result,
    ).not.toBeNull();
    expect(out.effects).toEqual([
      { kind: "notice", notice: measurementReadyNotice("p1", "m1", undefined, { deviceSn: done.deviceSn, testName: done.displayName }) },
    ]);
    // It says whose result it is: the patient, the test and the headset it ran on.
    expect(out.effects[0]).toMatchObject({
      notice: { subject: { patientId: "p1", deviceSn: done.deviceSn, testName: done.displayName, testType: "perimetry" } },
    });
    expect(measurementReadyNotice("p1", "m1")).toMatchObject({
      kind: "success",
      title: "measurement ready",
      durationMs: 10_000,
      action: { kind: "open-result", patientId: "p1", measurementId: "m1" },
    });
    // Its action opens the measurement on the perimetry page (seed route patient/{patientId}/perimetry/{perimetryId}).
    const notice = out.effects[0]!.kind === "notice" ? out.effects[0]!.notice : undefined;
    expect(resultRoute(notice!.action!)).toBe("/patient/p1/perimetry/m1?scrollToMeasurement=1");
  });

  it("measurement progress feeds device tracking", () => {
    const out = reduce(base, ev(T.Measurement, Op.MeasurementProgress, { deviceSn: "SN1", ...progress() }));
    expect(out.effects).toEqual([{ kind: "progress", deviceSn: "SN1", progress: progress() }]);
    expect(out.snapshot).toBe(base);
  });
});

describe("examination and appointment events ('handled alike')", () => {
  const a1 = appointment("a1", { examinations: [examination("e1"), examination("e2", { type: "perimetry" })] });
  let base = put(emptySnapshot, CacheKey.Appointments, {}, [a1]);
  base = put(base, CacheKey.Devices, {}, [device("SN1", { appointments: [a1] })]);
  base = put(base, CacheKey.Examinations, { patientId: "p1" }, [examination("e1"), examination("e2", { type: "perimetry" })]);
  base = put(base, CacheKey.Examinations, { patientId: "p1", taken: true }, []);
  base = put(base, CacheKey.AmslerGrid, { patientId: "p1" }, [examination("e1")]);
  base = put(base, CacheKey.TrashedAppointments, {}, [appointment("a9")]);
  const appointmentExams = (s: CacheSnapshot) =>
    ids((data(s, CacheKey.Appointments, {}) as ReturnType<typeof appointment>[])[0]!.examinations);
  const laneExams = (s: CacheSnapshot) =>
    ids((data(s, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!.appointments![0]!.examinations);

  it("examination insert adds where its filters match and to its appointment", () => {
    const out = reduce(base, ev(T.Examination, Op.Insert, examination("e3")));
    expect(ids(data(out.snapshot, CacheKey.Examinations, { patientId: "p1" }))).toEqual(["e1", "e2", "e3"]);
    expect(ids(data(out.snapshot, CacheKey.Examinations, { patientId: "p1", taken: true }))).toEqual([]);
    expect(ids(data(out.snapshot, CacheKey.AmslerGrid, { patientId: "p1" }))).toEqual(["e1", "e3"]);
    expect(appointmentExams(out.snapshot)).toEqual(["e1", "e2", "e3"]);
    expect(laneExams(out.snapshot)).toEqual(["e1", "e2", "e3"]);
  });

  it("examination restore adds; update replaces", () => {
    expect(
      ids(data(reduce(base, ev(T.Examination, Op.Restore, examination("e4"))).snapshot, CacheKey.AmslerGrid, { patientId: "p1" })),
    ).toEqual(["e1", "e4"]);
    const out = reduce(base, ev(T.Examination, Op.Update, examination("e1", { notes: "n" })));
    expect((data(out.snapshot, CacheKey.Examinations, { patientId: "p1" }) as unknown as Array<{ notes: string }>)[0]!.notes).toBe("n");
    expect(ids(data(out.snapshot, CacheKey.Examinations, { patientId: "p1", taken: true }))).toEqual([]);
  });

  it("examination trash and delete remove everywhere", () => {
    for (const op of [Op.Trash, Op.Delete]) {
      const out = reduce(base, ev(T.Examination, op, { id: "e1" }));
      expect(appointmentExams(out.snapshot)).toEqual(["e2"]);
      expect(laneExams(out.snapshot)).toEqual(["e2"]);
      expect(ids(data(out.snapshot, CacheKey.AmslerGrid, { patientId: "p1" }))).toEqual([]);
    }
  });

  it("examination result ready replaces it with its result and notifies 'measurement ready'", () => {
    const taken = examination("e1", {
      taken: true,
      result: { answer: "healthy", takenAt: "2026-11-03T00:00:00.000Z", deviceSn: "SN1", appointmentId: "a1" },
    });
    const out = reduce(base, ev(T.Examination, Op.MeasurementResultReady, taken));
    expect(ids(data(out.snapshot, CacheKey.Examinations, { patientId: "p1", taken: true }))).toEqual(["e1"]);
    expect(out.effects).toEqual([
      {
        kind: "notice",
        notice: measurementReadyNotice("p1", "e1", { testType: "amsler", examination: true }, { deviceSn: taken.deviceSn, testName: null }),
      },
    ]);
    expect(out.effects[0]).toMatchObject({ notice: { subject: { patientId: "p1", testName: null, testType: "amsler" } } });
  });

  it("the 'measurement ready' action of an examination opens the page of its test type, not a perimetry page (Amsler, acuity, colour)", () => {
    const routes = (["perimetry", "amsler", "acuity", "color-blindness"] as const).map((type) => {
      const taken = examination("e7", {
        type,
        taken: true,
        result:
          type === "amsler"
            ? { answer: "wavy", takenAt: "2026-11-03T00:00:00.000Z", deviceSn: "SN1", appointmentId: "a1" }
            : type === "perimetry"
              ? result("e7", "p1")
              : null,
      });
      const effect = reduce(base, ev(T.Examination, Op.MeasurementResultReady, taken)).effects.find((e) => e.kind === "notice");
      expect(effect?.kind === "notice" && effect.notice.action).toMatchObject({
        kind: "open-result",
        patientId: "p1",
        measurementId: "e7",
        testType: type,
        examination: true,
      });
      return effect?.kind === "notice" ? resultRoute(effect.notice.action!) : undefined;
    });
    expect(routes).toEqual([
      "/patient/p1/perimetry/e7?scrollToMeasurement=1",
      "/patient/p1/amsler-grid",
      "/patient/p1/overview",
      "/patient/p1/overview",
    ]);
    expect(resultRoute({ kind: "open-bin", label: "Open bin" })).toBeNull();
  });

  it("examination progress feeds device tracking", () => {
    const p = progress({ perimetryId: null, appointmentId: "a1" });
    expect(reduce(base, ev(T.Examination, Op.ExaminationProgress, { deviceSn: "SN1", ...p })).effects).toEqual([
      { kind: "progress", deviceSn: "SN1", progress: p },
    ]);
  });

  it("appointment insert and restore add (list and lane); update replaces; trash and delete remove", () => {
    const inserted = reduce(base, ev(T.Appointment, Op.Insert, appointment("a2")));
    expect(ids(data(inserted.snapshot, CacheKey.Appointments, {}))).toEqual(["a1", "a2"]);
    expect(ids((data(inserted.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!.appointments)).toEqual(["a1", "a2"]);
    const restored = reduce(base, ev(T.Appointment, Op.Restore, appointment("a9")));
    expect(ids(data(restored.snapshot, CacheKey.TrashedAppointments, {}))).toEqual([]);
    const updated = reduce(base, ev(T.Appointment, Op.Update, { ...a1, examinations: [examination("e1")] }));
    expect(laneExams(updated.snapshot)).toEqual(["e1"]);
    const trashed = reduce(base, ev(T.Appointment, Op.Trash, { id: "a1" }));
    expect(ids(data(trashed.snapshot, CacheKey.Appointments, {}))).toEqual([]);
    expect(trashed.effects).toEqual([{ kind: "refetch", key: CacheKey.TrashedAppointments }]);
    const deleted = reduce(base, ev(T.Appointment, Op.Delete, { id: "a9" }));
    expect(ids(data(deleted.snapshot, CacheKey.TrashedAppointments, {}))).toEqual([]);
  });

  it("a trashed or deleted appointment takes its examinations out of the patient's results; a restore reads them again", () => {
    for (const op of [Op.Trash, Op.Delete]) {
      const out = reduce(base, ev(T.Appointment, op, { id: "a1" }));
      expect(ids(data(out.snapshot, CacheKey.Examinations, { patientId: "p1" }))).toEqual([]);
      expect(ids(data(out.snapshot, CacheKey.AmslerGrid, { patientId: "p1" }))).toEqual([]);
    }
    const other = reduce(base, ev(T.Appointment, Op.Trash, { id: "a7" }));
    expect(data(other.snapshot, CacheKey.Examinations, { patientId: "p1" })).toBe(data(base, CacheKey.Examinations, { patientId: "p1" }));
    expect(reduce(base, ev(T.Appointment, Op.Restore, appointment("a9"))).effects).toEqual([
      { kind: "refetch", key: CacheKey.Examinations },
    ]);
  });

  it("reorder replaces the appointment with its new examination order", () => {
    const out = reduce(base, ev(T.Reorder, Op.Update, { ...a1, examinations: [...a1.examinations].reverse() }));
    expect(appointmentExams(out.snapshot)).toEqual(["e2", "e1"]);
    expect(laneExams(out.snapshot)).toEqual(["e2", "e1"]);
  });
});

describe("drag and drop and connection events", () => {
  const base = put(emptySnapshot, CacheKey.Devices, {}, [device("SN1", { revision: 4 }), device("SN2", { revision: 7 })]);

  it("a drop we already applied (same revisions) changes nothing; anyone else's refetches devices", () => {
    const ours = { from: { deviceId: "dev-SN1", revision: 4 }, to: { deviceId: "dev-SN2", revision: 7 } };
    expect(reduce(base, ev(T.DragAndDrop, Op.Update, ours)).effects).toEqual([]);
    const theirs = { from: { deviceId: "dev-SN1", revision: 5 }, to: { deviceId: "dev-SN2", revision: 8 } };
    expect(reduce(base, ev(T.DragAndDrop, Op.Update, theirs)).effects).toEqual([{ kind: "refetch", key: CacheKey.Devices }]);
  });

  it("the events of this client's own drag cost no refetch while the lanes show what it sent; anyone else's change still refetches", () => {
    // Our drag of card m1 from SN1 [m1, m2] (revision 4) to SN2 [] (revision 7) is under way: the server answers 5 and 8.
    const own = (revision: number, ids: string[]) => ({ revision, field: "perimetries" as const, ids });
    const awaiting = {
      viewedPatientId: null,
      ownLaneRevisions: new Map([
        ["dev-SN1", own(5, ["m2"])],
        ["dev-SN2", own(8, ["m1"])],
      ]),
    };
    const lanes = (r1: number, r2: number, one: string[], two: string[]) =>
      put(emptySnapshot, CacheKey.Devices, {}, [
        device("SN1", { revision: r1, perimetries: one.map((id) => measurement(id)) }),
        device("SN2", { revision: r2, perimetries: two.map((id) => measurement(id)) }),
      ]);
    const moved = (r1: number, r2: number) => lanes(r1, r2, ["m2"], ["m1"]);
    const before = lanes(4, 7, ["m1", "m2"], []);
    const optimistic = moved(4, 7);
    const events = [
      ev(T.Measurement, Op.DeviceTransferOut, { deviceSn: "SN1" }),
      ev(T.Measurement, Op.DeviceTransferIn, { deviceSn: "SN2" }),
      ev(T.DragAndDrop, Op.Update, { from: { deviceId: "dev-SN1", revision: 5 }, to: { deviceId: "dev-SN2", revision: 8 } }),
      ev(T.Device, Op.Update, { deviceSn: "SN1", revision: 5 }),
      ev(T.Device, Op.Update, { deviceSn: "SN2", revision: 8 }),
    ];
    for (const e of events) expect(reduceLiveEvent(optimistic, e, awaiting).effects, `${e.type}/${e.operation}`).toEqual([]);
    // Without the drag (another client's): every one of them refetches.
    for (const e of events)
      expect(reduce(optimistic, e).effects, `${e.type}/${e.operation}`).toContainEqual({ kind: "refetch", key: CacheKey.Devices });
    // A read that landed meanwhile put the lists from before the drag back: the events are no longer known as ours.
    for (const e of events)
      expect(reduceLiveEvent(before, e, awaiting).effects, `${e.type}/${e.operation}`).toContainEqual({
        kind: "refetch",
        key: CacheKey.Devices,
      });
    // Answered (5 and 8 cached): a transfer of ours that comes late still costs nothing.
    expect(reduceLiveEvent(moved(5, 8), events[0]!, awaiting).effects).toEqual([]);
    // A change after ours (revision 9 of SN2): refetched, and a transfer on a lane read since at 9 is not ours.
    expect(reduceLiveEvent(moved(5, 8), ev(T.Device, Op.Update, { deviceSn: "SN2", revision: 9 }), awaiting).effects).toEqual([
      { kind: "refetch", key: CacheKey.Devices },
    ]);
    expect(reduceLiveEvent(moved(5, 9), events[1]!, awaiting).effects).toEqual([{ kind: "refetch", key: CacheKey.Devices }]);
  });

  it("a device update with another revision refetches the lanes instead of pairing that revision with a stale queue", () => {
    const sameRevision = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN1", revision: 4, status: "standby" }));
    expect(sameRevision.effects.filter((e) => e.kind === "refetch")).toEqual([]);
    const newer = reduce(base, ev(T.Device, Op.Update, { deviceSn: "SN1", revision: 5, status: "standby" }));
    expect(newer.effects).toContainEqual({ kind: "refetch", key: CacheKey.Devices });
    // The cached revision stays the one that goes with the cached queue (a drop sends it as its conflict check).
    expect((data(newer.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[0]!.revision).toBe(4);
  });

  it("a connection event sets the device's connection and feeds tracking (CONNECTED is a heartbeat)", () => {
    const out = reduce(base, ev(T.Connection, Op.Update, { deviceSn: "SN2", connection: "DISCONNECTED" }));
    expect((data(out.snapshot, CacheKey.Devices, {}) as ReturnType<typeof device>[])[1]!.connection).toBe("DISCONNECTED");
    expect(out.effects).toEqual([{ kind: "connection", deviceSn: "SN2", connection: "DISCONNECTED" }]);
  });
});

describe("every type and operation", () => {
  it("never throws, whatever event of the table comes and whatever is cached", () => {
    const base = put(put(emptySnapshot, CacheKey.Devices, {}, [device("SN1")]), CacheKey.Patients, {}, [patient("p1")]);
    fc.assert(
      fc.property(liveEvent, fc.constantFrom(emptySnapshot, base), (event, snapshot) => {
        if (!("operation" in event)) return;
        expect(() => reduce(snapshot, event, "p1")).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("an event for a key that is not cached leaves the snapshot as it is", () => {
    expect(reduce(emptySnapshot, ev(T.Measurement, Op.Insert, measurement("m1"))).snapshot).toBe(emptySnapshot);
  });
});
