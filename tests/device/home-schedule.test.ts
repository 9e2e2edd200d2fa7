import { Result, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { type HomeSetting, frame, readServerFrame } from "../../core/device/protocol.ts";
import { HomeScheduleSchema } from "../../core/model/contract/home.ts";
import { decode } from "../../core/model/decode.ts";
import { Eye } from "../../core/model/enums.ts";

// The standalone frame's schedule with the repeats pending (issue 31: "ask for a repeat" sent to the headset). The field
// came after the first home headsets: a headset built before it decodes the frame still, ignoring what it does not know.

const schedule: HomeSetting = {
  programmeId: "prog-1",
  eyes: [Eye.Right, Eye.Left],
  frequency: { kind: "weekly" },
  start: "2026-01-01",
  end: "2026-06-30",
  reminderTime: "18:30",
  timeZone: "Europe/Berlin",
  repeats: [{ number: 1, eyes: [Eye.Left], from: "2026-02-03", to: "2026-02-09" }],
};

/** The schedule as the first home headsets knew it: no repeats. */
const OlderHomeSetting = Schema.Struct({ programmeId: Schema.String, ...HomeScheduleSchema.fields });

describe("the schedule's repeats on the wire", () => {
  it("round-trip through a frame", () => {
    const m = { type: "standalone" as const, standaloneId: "sa-1", config: null, home: schedule };
    const read = readServerFrame(frame(m));
    expect(Result.isSuccess(read) && read.success).toEqual(m);
  });

  it("an older headset's schema decodes the new schedule, without the repeats it does not know", () => {
    const wire = JSON.parse(frame({ type: "standalone", standaloneId: "sa-1", config: null, home: schedule })).home;
    const older = decode(OlderHomeSetting, wire);
    const { repeats: _r, ...regular } = schedule;
    expect(Result.isSuccess(older) && older.success).toEqual(regular);
  });

  it("a schedule without repeats is as before (the field absent)", () => {
    const { repeats: _r, ...regular } = schedule;
    const read = readServerFrame(frame({ type: "standalone", standaloneId: "sa-1", config: null, home: regular }));
    const home = Result.isSuccess(read) && read.success.type === "standalone" ? read.success.home : undefined;
    expect(home).toEqual(regular);
    expect(home && "repeats" in home).toBe(false);
  });
});
