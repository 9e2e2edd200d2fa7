// bench:home's homes, made through the API as a clinic would: per home a patient, a headset enrolled with its device
// credential, and the headset set to stand-alone mode repeating the patient's test (the seeds' stand-alone mode; a home
// programme is its scheduled form, issue 31 §1).
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
export const prepareHomes = async (url: string, password: string, count: number, tag: string, parallel = 8): Promise<Home[]> => {
  const { accessToken } = await call<{ accessToken: string }>(url, null, "POST", "login", { username: "manager", password });
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
    await call(url, accessToken, "POST", `device/standalone?deviceSn=${encodeURIComponent(serial)}`, homeTest(i, patient.id));
    return { id, serial, credential: issued.secret.value, patientId: patient.id };
  };
  const homes: Home[] = [];
  for (let i = 0; i < count; i += parallel)
    homes.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - i) }, (_, k) => one(i + k)))));
  return homes;
};
