import fc from "fast-check";
import {
  AmslerAnswer,
  ConnectionStatus,
  DeviceStatus,
  Eye,
  Languages,
  Pattern,
  RegulatoryRegion,
  Role,
  Sex,
  Showtime,
  SorsLocations,
  StimuliUpdate,
  StimulusSize,
  Strategy,
  TestType,
} from "../../core/model/enums.ts";
import type {
  AccessTokenPayload,
  AmslerResult,
  Appointment,
  ClientSettings,
  Device,
  Examination,
  ExaminationConfig,
  LiveMessage,
  Measurement,
  MeasurementConfig,
  MeasurementResult,
  Organisation,
  Patient,
  ProgressionPoint,
  RunningTest,
  Template,
  User,
  UserProfile,
} from "../../core/model/index.ts";
import {
  AppointmentSchema,
  ClickerDisconnectedDataSchema,
  ConnectionDataSchema,
  DeviceChangeDataSchema,
  DeviceSchema,
  DeviceTransferDataSchema,
  ExaminationSchema,
  LaneMoveDataSchema,
  MeasurementSchema,
  PatientSchema,
  ProgressDataSchema,
  RemovedDataSchema,
  liveEventData,
} from "../../core/model/index.ts";

// fast-check arbitraries for every entity, typed against the schemas' types: a field added to a schema breaks the
// build here until the arbitrary covers it. Values are what JSON can carry (finite numbers, no -0).

const oneOf = <T extends string | number>(values: Record<string, T> | ReadonlyArray<T>) =>
  fc.constantFrom(...(Object.values(values) as T[]));

export const id = fc.uuid();
export const deviceSn = fc.stringMatching(/^[A-Z0-9]{4,12}$/);
export const text = fc.string({ maxLength: 30 });
export const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
export const count = fc.nat({ max: 500 });
export const isoDate = fc
  .date({ min: new Date("1901-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
export const isoDateTime = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());

export const eye = oneOf(Eye);
export const pattern = oneOf(Pattern);
export const strategy = oneOf(Strategy);
export const stimulusSize = oneOf(StimulusSize);
export const showtime = oneOf(Showtime);
export const stimuliUpdate = oneOf(StimuliUpdate);
export const sorsLocations = oneOf(SorsLocations);
export const sex = oneOf(Sex);
export const language = oneOf(Languages);
export const role = oneOf(Role);
export const testType = oneOf(TestType);
export const region = oneOf(RegulatoryRegion);

export const patient: fc.Arbitrary<Patient> = fc.record(
  {
    id,
    name: text,
    uniqueId: text,
    gender: sex,
    lang: language,
    birthdate: isoDate,
    address: fc.option(text, { nil: null }),
    city: fc.option(text, { nil: null }),
    zipcode: fc.option(text, { nil: null }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    trashedAt: fc.option(isoDateTime, { nil: null }),
  },
  { requiredKeys: ["id", "name", "uniqueId", "gender", "lang", "birthdate", "createdAt", "updatedAt", "trashedAt"] },
);

const tally = fc.record({ errors: count, presentations: count });

export const measurementResult: fc.Arbitrary<MeasurementResult> = fc.record({
  measurementId: id,
  patientId: id,
  takenAt: isoDateTime,
  eye,
  pattern,
  strategy,
  sorsStage: fc.option(sorsLocations, { nil: null }),
  stimulusSize,
  stimuliShowtime: showtime,
  stimuliInterval: finite,
  meanUpdateTime: finite,
  presentations: count,
  examinationTimeInSeconds: finite,
  maxIntensity: finite,
  thresholds: fc.array(finite, { maxLength: 8 }),
  defects: fc.array(finite, { maxLength: 8 }),
  normValues: fc.option(fc.array(finite, { maxLength: 8 }), { nil: null }),
  meanSensitivity: finite,
  meanDefect: fc.option(finite, { nil: null }),
  squareRootLossVariance: fc.option(finite, { nil: null }),
  vfi: fc.option(finite, { nil: null }),
  falseNegatives: finite,
  falsePositives: finite,
  fixationLosses: finite,
  catchTrials: fc.record({ falseNegative: tally, falsePositive: tally, blindSpot: tally }),
  gazeTracking: fc.option(fc.record({ meanDistance: fc.array(finite, { maxLength: 8 }), fixationThreshold: finite }), {
    nil: null,
  }),
  estermanScore: fc.option(finite, { nil: null }),
  reliabilityScore: fc.option(finite, { nil: null }),
  normativeVersion: fc.option(text, { nil: null }),
  gazeCalibration: fc.option(fc.boolean(), { nil: null }),
  background: finite,
  deviceAlias: fc.option(text, { nil: null }),
});

export const measurementConfig: fc.Arbitrary<MeasurementConfig> = fc.record({
  patientId: fc.option(id, { nil: null }),
  deviceSn: fc.option(deviceSn, { nil: null }),
  displayName: text,
  eye,
  pattern,
  strategy,
  stimuliUpdate,
  stimuliSize: stimulusSize,
  stimuliShowtime: showtime,
  sorsStage: sorsLocations,
  playSound: fc.boolean(),
  trackGaze: fc.boolean(),
  audioGuide: fc.boolean(),
  tutorial: fc.boolean(),
  notes: fc.string({ maxLength: 256 }),
});

export const measurement: fc.Arbitrary<Measurement> = fc
  .tuple(
    measurementConfig,
    fc.record({
      id,
      patientId: id,
      deviceSn: fc.option(deviceSn, { nil: null }),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
      isFollowingEye: fc.option(id, { nil: null }),
      reliable: fc.boolean(),
      baseline: fc.boolean(),
      cloned: fc.boolean(),
      result: fc.option(measurementResult, { nil: null }),
      trashedAt: fc.option(isoDateTime, { nil: null }),
    }),
  )
  .map(([config, rest]) => ({ ...config, ...rest }));

export const amslerResult: fc.Arbitrary<AmslerResult> = fc.record({
  answer: oneOf(AmslerAnswer),
  takenAt: isoDateTime,
  deviceSn,
  appointmentId: fc.option(id, { nil: null }),
});

export const examinationConfig: fc.Arbitrary<ExaminationConfig> = fc.record({
  pattern,
  strategy,
  stimuliUpdate,
  stimuliSize: stimulusSize,
  stimuliShowtime: showtime,
  sorsLocations,
  sorsStage: sorsLocations,
  playSound: fc.boolean(),
  trackGaze: fc.boolean(),
  audioGuide: fc.boolean(),
});

export const examination: fc.Arbitrary<Examination> = fc.record({
  id,
  patientId: id,
  type: testType,
  eye,
  notes: text,
  taken: fc.boolean(),
  appointmentId: fc.option(id, { nil: null }),
  deviceSn: fc.option(deviceSn, { nil: null }),
  result: fc.option(fc.oneof(measurementResult, amslerResult), { nil: null }),
  config: fc.option(examinationConfig, { nil: null }),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  trashedAt: fc.option(isoDateTime, { nil: null }),
});

export const appointment: fc.Arbitrary<Appointment> = fc.record({
  id,
  patientId: id,
  deviceSn: fc.option(deviceSn, { nil: null }),
  examinations: fc.array(examination, { maxLength: 3 }),
  audioGuide: fc.boolean(),
  tutorial: fc.boolean(),
  trackGaze: fc.boolean(),
  standaloneId: fc.option(id, { nil: null }),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  trashedAt: fc.option(isoDateTime, { nil: null }),
});

const battery = fc.record({ level: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }), charging: fc.boolean() });

export const device: fc.Arbitrary<Device> = fc.record(
  {
    id,
    deviceSn,
    alias: text,
    status: oneOf(DeviceStatus),
    lastSeen: fc.option(isoDateTime, { nil: null }),
    standaloneId: fc.option(id, { nil: null }),
    revision: count,
    battery: fc.record({ vr: battery, clicker: battery }),
    connection: oneOf(ConnectionStatus),
    perimetries: fc.array(measurement, { maxLength: 2 }),
    appointments: fc.array(appointment, { maxLength: 2 }),
  },
  {
    requiredKeys: ["id", "deviceSn", "alias", "status", "lastSeen", "standaloneId", "revision", "battery", "connection", "perimetries"],
  },
);

export const runningTest: fc.Arbitrary<RunningTest> = fc.record(
  {
    perimetryId: fc.option(id, { nil: null }),
    appointmentId: fc.option(id, { nil: null }),
    examinationId: fc.option(id, { nil: null }),
    nTested: count,
    nLocations: count,
    gazeTracking: fc.option(fc.boolean(), { nil: null }),
    thresholds: fc.array(
      fc.record({
        index: count,
        dBValue: fc.option(finite, { nil: null }),
        answerTime: fc.option(finite, { nil: null }),
      }),
      { maxLength: 10 },
    ),
    lastUpdatedIndex: fc.option(count, { nil: null }),
  },
  { requiredKeys: ["perimetryId", "appointmentId", "nTested", "nLocations", "gazeTracking", "thresholds", "lastUpdatedIndex"] },
);

export const template: fc.Arbitrary<Template> = fc.record({
  id,
  name: text,
  tests: fc.array(fc.record({ type: testType, eye: fc.option(eye, { nil: null }), config: fc.option(examinationConfig, { nil: null }) }), {
    maxLength: 4,
  }),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const user: fc.Arbitrary<User> = fc.record({
  id,
  email: fc.emailAddress(),
  username: fc.option(text, { nil: null }),
  role,
  status: fc.constantFrom("invited" as const, "active" as const),
  createdAt: isoDateTime,
});

export const userProfile: fc.Arbitrary<UserProfile> = fc.record({
  id,
  username: text,
  email: fc.emailAddress(),
  role,
  organisationId: id,
  market: region,
  country: fc.option(fc.stringMatching(/^[A-Z]{2}$/), { nil: null }),
  language,
  multiTests: fc.boolean(),
});

export const organisation: fc.Arbitrary<Organisation> = fc.record({
  id,
  name: text,
  multiTests: fc.boolean(),
  market: region,
  country: fc.option(fc.stringMatching(/^[A-Z]{2}$/), { nil: null }),
});

export const accessTokenPayload: fc.Arbitrary<AccessTokenPayload> = fc.record(
  { role, username: text, email: fc.emailAddress(), exp: fc.integer({ min: 0, max: 2 ** 31 }), sub: id, organisationId: id },
  { requiredKeys: ["role", "username", "email", "exp"] },
);

export const progressionPoint: fc.Arbitrary<ProgressionPoint> = fc.record({
  measurementId: id,
  patientId: id,
  takenAt: isoDateTime,
  meanDefect: finite,
  eye,
  pattern,
  strategy,
});

export const clientSettings: fc.Arbitrary<ClientSettings> = fc.record({
  analysisExpanded: fc.boolean(),
  progressionChartExpanded: fc.boolean(),
  historyExpanded: fc.boolean(),
  pattern,
});

/** The data of every kind of live event: one arbitrary per data schema of core/model/live-data.ts. */
const liveData = (): Map<unknown, fc.Arbitrary<unknown>> => {
  const nullableId = fc.option(id, { nil: null });
  const lane = fc.record({ deviceId: id, revision: fc.integer({ min: 0 }) });
  return new Map<unknown, fc.Arbitrary<unknown>>([
    [DeviceSchema, device],
    [PatientSchema, patient],
    [MeasurementSchema, measurement],
    [ExaminationSchema, examination],
    [AppointmentSchema, appointment],
    [RemovedDataSchema, fc.record({ id })],
    [DeviceTransferDataSchema, fc.record({ deviceSn })],
    [ConnectionDataSchema, fc.record({ deviceSn, connection: oneOf(ConnectionStatus) })],
    [
      DeviceChangeDataSchema,
      fc.record(
        { deviceSn, status: oneOf(DeviceStatus), connection: oneOf(ConnectionStatus), revision: fc.integer({ min: 0 }) },
        { requiredKeys: ["deviceSn"] },
      ),
    ],
    [ProgressDataSchema, fc.tuple(deviceSn, runningTest).map(([sn, r]) => ({ deviceSn: sn, ...r }))],
    [ClickerDisconnectedDataSchema, fc.record({ deviceSn, perimetryId: nullableId, appointmentId: nullableId, examinationId: nullableId })],
    [LaneMoveDataSchema, fc.record({ from: lane, to: lane })],
  ]);
};

/** Every (type, operation) of the live event table with data of its schema. */
export const liveEvent: fc.Arbitrary<LiveMessage> = fc.oneof(
  ...Object.entries(liveEventData).flatMap(([type, byOperation]) =>
    Object.entries(byOperation).map(([operation, schema]) => {
      const data = liveData().get(schema);
      if (data === undefined) throw new Error(`no arbitrary for the data of ${type}/${operation}`);
      return fc.record(
        { type: fc.constant(type), operation: fc.constant(operation), data, accessToken: text, deviceSn },
        { requiredKeys: ["type", "operation", "data"] },
      ) as fc.Arbitrary<LiveMessage>;
    }),
  ),
);

export const liveMessage: fc.Arbitrary<LiveMessage> = fc.oneof(
  liveEvent,
  fc.record({ type: fc.constant("logged_in" as const), accessToken: text, message: text }),
  fc.record({ type: fc.constant("ping" as const) }),
  fc.record({ type: fc.constant("pong" as const) }),
  fc.record({ type: fc.constant("token_expired" as const), message: text }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("token_verification_error" as const), message: text }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("another_session_opened" as const), message: text }, { requiredKeys: ["type"] }),
);
