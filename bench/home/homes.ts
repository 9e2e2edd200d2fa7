// bench:home's homes, made through the API as a clinic would: per home a patient, a headset enrolled with its device
// credential, and a home programme binding the headset to the patient (issue 31 §1: weekly 24-2 DS of one eye from
// some weeks back for three years, the scheduled form of the seeds' stand-alone mode); or, with mode "standalone", the headset
// set to stand-alone mode repeating the patient's test.
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";

export interface Home {
  readonly id: string;
  readonly serial: string;
  readonly credential: string;
  readonly patientId: string;
}

/** The test every home repeats (ours): 24-2 DS, one eye (alternating over the homes), with the audio guide and gaze. */
export const homeTest = (i: number, patientId: string) => ({
  patientId,
  displayName: "Home 24-2",
  eye: i % 2 === 0 ? Eye.Right : Eye.Left,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  stimuliUpdate: 1000,
  stimuliSize: 2,
  stimuliShowtime: 200,
  sorsStage: 36,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
});

const call = async <T>(url: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${url}/api/${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer.data;
};

/** `count` homes on the server at `url` (the demo clinic's manager makes them), `parallel` at a time. */
/** The demo clinic manager's access token. */
export const managerToken = async (url: string, password: string) =>
  (await call<{ accessToken: string }>(url, null, "POST", "login", { username: "manager", password })).accessToken;

export type HomeMode = "programme" | "standalone";

/**
 * A weekly programme of the home's test (ours): from `weeksBack` weeks before today (UTC) for three years, the reminder
 * at 18:30. Started in the past so the headset's compressed calendar has sessions to run without dating a result in
 * the future (the server refuses those): it runs them in order from the first, never past the real now, and the
 * sessions it does not reach in the bench's window are honestly missed.
 */
export const homeProgramme = (i: number, patientId: string, deviceSn: string, weeksBack: number, now = new Date()) => {
  const t = homeTest(i, patientId);
  const start = new Date(now.getTime() - weeksBack * 7 * 86_400_000);
  const end = new Date(start);
  end.setUTCFullYear(end.getUTCFullYear() + 3);
  return {
    patientId,
    deviceSn,
    eyes: [t.eye],
    pattern: t.pattern,
    strategy: t.strategy,
    frequency: { kind: "weekly" },
    start: start.toISOString().slice(0, 10),
    end: end.toISOString().slice(0, 10),
    reminderTime: "18:30",
    timeZone: "UTC",
  };
};

export const prepareHomes = async (
  url: string,
  password: string,
  count: number,
  tag: string,
  mode: HomeMode,
  weeksBack: number,
  parallel = 8,
): Promise<Home[]> => {
  const accessToken = await managerToken(url, password);
  const one = async (i: number): Promise<Home> => {
    const id = `${tag}-${String(i).padStart(4, "0")}`;
    const patient = await call<{ id: string }>(url, accessToken, "POST", "patient/register", {
      name: `Home Patient ${id}`,
      uniqueId: `HOME-${id}`,
      gender: i % 2,
      lang: "en",
      birthdate: `19${50 + (i % 30)}-0${1 + (i % 9)}-1${i % 10}`,
    });
    const serial = `VR-${id}`.toUpperCase();
    const issued = await call<{ secret: { value: string } }>(url, accessToken, "POST", "device/enrol", {
      deviceSn: serial,
      alias: `Home ${id}`,
      secret: "credential",
    });
    if (mode === "programme")
      await call(url, accessToken, "POST", "home/programme/create", homeProgramme(i, patient.id, serial, weeksBack));
    else await call(url, accessToken, "POST", `device/standalone?deviceSn=${encodeURIComponent(serial)}`, homeTest(i, patient.id));
    return { id, serial, credential: issued.secret.value, patientId: patient.id };
  };
  const homes: Home[] = [];
  for (let i = 0; i < count; i += parallel)
    homes.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - i) }, (_, k) => one(i + k)))));
  return homes;
};
