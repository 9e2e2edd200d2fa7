import { Schema } from "effect";
import { commonErrors, endpoint } from "../../core/model/contract/index.ts";
import { DeviceStatusSchema, Role } from "../../core/model/enums.ts";
import { DeviceSnSchema } from "../../core/model/ids.ts";

// The simulator's control calls (our design, outside the seeds' contract): while `npm start` / `isopter simulate` runs
// the virtual headsets beside the server, an admin or manager may add and remove headsets, inject a fault and set a
// headset's patient profile and speed. Mounted under /api/dev/simulator/ only by a server that runs the headsets
// (simulator/start.ts); any other server answers not_found. The server decodes requests with these schemas and the
// CLI decodes the answers with them (createHttpApi with `contract: simulatorControl`), so both sides share one wire.
// They would belong in core/model/contract if the web app ever used them.

/** The simulated patients' profiles (simulator/perimetry/profiles.ts PROFILE_NAMES; a test keeps the two equal). */
export const SimulatedProfiles = ["healthy", "early", "moderate", "advanced", "hemianopia", "unreliable"] as const;
export const SimulatedProfileSchema = Schema.Literals(SimulatedProfiles);
export type SimulatedProfile = Schema.Schema.Type<typeof SimulatedProfileSchema>;

/** null: each patient keeps the profile of the clinic mix its id maps to (the headsets' default). */
export const ProfileSettingSchema = Schema.NullOr(SimulatedProfileSchema);

/** Device time per clock time, as SPEED of the start command: above 0, at most 1000. */
export const SpeedSchema = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1000));

export const MAX_HEADSETS_PER_ADD = 100;
export const MAX_FAULT_SECONDS = 3600;

export const HeadsetFaults = ["disconnect", "battery-empty", "clicker-lost", "stop-responding"] as const;
export const HeadsetFaultSchema = Schema.Literals(HeadsetFaults);
export type HeadsetFault = Schema.Schema.Type<typeof HeadsetFaultSchema>;

/** One running virtual headset as the control sees it. */
export const SimulatedHeadsetSchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  /** Welcomed by the server (heartbeats flowing). */
  connected: Schema.Boolean,
  /** Switched on (false while a flat battery recharges). */
  powered: Schema.Boolean,
  status: DeviceStatusSchema,
  speed: SpeedSchema,
  profile: ProfileSettingSchema,
  /** A test is running. */
  testing: Schema.Boolean,
  battery: Schema.Struct({ vr: Schema.Finite, clicker: Schema.Finite, vrCharging: Schema.Boolean }),
  resultsProduced: Schema.Finite,
  /** Results not yet confirmed stored by the server. */
  pendingResults: Schema.Finite,
  /** Settings asked for while the headset was busy: applied when its test ends and its results are stored. */
  pendingSettings: Schema.NullOr(Schema.Struct({ speed: SpeedSchema, profile: ProfileSettingSchema })),
});
export type SimulatedHeadset = Schema.Schema.Type<typeof SimulatedHeadsetSchema>;

export const HeadsetListSchema = Schema.Struct({ headsets: Schema.Array(SimulatedHeadsetSchema) });

export const AddHeadsetsBodySchema = Schema.Struct({
  count: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_HEADSETS_PER_ADD })),
  /** Default: the clinic mix. */
  profile: Schema.optionalKey(ProfileSettingSchema),
  /** Default: the start command's SPEED. */
  speed: Schema.optionalKey(SpeedSchema),
});
export type AddHeadsetsBody = Schema.Schema.Type<typeof AddHeadsetsBodySchema>;

export const RemoveHeadsetQuerySchema = Schema.Struct({ deviceSn: DeviceSnSchema });

export const FaultBodySchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  fault: HeadsetFaultSchema,
  /** How long it lasts in seconds of clock time (default: the headset's own, see the CLI help). */
  seconds: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(MAX_FAULT_SECONDS))),
});
export type FaultBody = Schema.Schema.Type<typeof FaultBodySchema>;

/** One headset (deviceSn) or every one (all: true); at least one of profile and speed. */
export const HeadsetSettingsBodySchema = Schema.Struct({
  deviceSn: Schema.optionalKey(DeviceSnSchema),
  all: Schema.optionalKey(Schema.Literal(true)),
  profile: Schema.optionalKey(ProfileSettingSchema),
  speed: Schema.optionalKey(SpeedSchema),
});
export type HeadsetSettingsBody = Schema.Schema.Type<typeof HeadsetSettingsBodySchema>;

/** What the settings call cannot say with a schema: exactly one target, at least one setting. */
export const settingsBodyProblem = (b: HeadsetSettingsBody): { field: string; message: string } | null => {
  if ((b.deviceSn === undefined) === (b.all === undefined)) return { field: "body.deviceSn", message: "give either deviceSn or all: true" };
  if (b.profile === undefined && b.speed === undefined) return { field: "body.profile", message: "give profile, speed or both" };
  return null;
};

export const FaultAnswerSchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  fault: HeadsetFaultSchema,
  seconds: Schema.NullOr(Schema.Finite),
});

const control = {
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  roles: [Role.Admin, Role.Manager],
  carriesAccessToken: false,
  source: "our design",
} as const;

export const simulatorHeadsets = endpoint({
  name: "simulator.headsets",
  method: "GET",
  path: "dev/simulator/headsets",
  response: HeadsetListSchema,
  ...control,
  ourDesign: "the virtual headsets the running simulator drives",
});
export const simulatorAdd = endpoint({
  name: "simulator.add",
  method: "POST",
  path: "dev/simulator/headsets",
  body: AddHeadsetsBodySchema,
  response: HeadsetListSchema,
  ...control,
  ourDesign: "registers `count` more devices (VR-nnnn) in the caller's organisation and starts a headset for each; answers the added ones",
});
export const simulatorRemove = endpoint({
  name: "simulator.remove",
  method: "DELETE",
  path: "dev/simulator/headsets",
  query: RemoveHeadsetQuerySchema,
  response: SimulatedHeadsetSchema,
  ...control,
  ourDesign: "switches the headset off for good; the device stays registered (it shows disconnected)",
});
export const simulatorSettings = endpoint({
  name: "simulator.settings",
  method: "PATCH",
  path: "dev/simulator/headsets",
  body: HeadsetSettingsBodySchema,
  response: HeadsetListSchema,
  ...control,
  ourDesign:
    "a new speed applies at once, also mid-test; a new patient profile restarts the headset with it (at once when idle, else after its running test)",
});
export const simulatorFault = endpoint({
  name: "simulator.fault",
  method: "POST",
  path: "dev/simulator/faults",
  body: FaultBodySchema,
  response: FaultAnswerSchema,
  ...control,
  ourDesign: "one fault now: network loss, flat battery, clicker lost, or the patient stops responding",
});

/** The control calls by name, for createHttpApi({ contract }). */
export const simulatorControl = {
  "simulator.headsets": simulatorHeadsets,
  "simulator.add": simulatorAdd,
  "simulator.remove": simulatorRemove,
  "simulator.settings": simulatorSettings,
  "simulator.fault": simulatorFault,
} as const;
