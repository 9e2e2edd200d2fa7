import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { CacheKey } from "../../../core/client/index.ts";
import { Eye, type Pattern, type Strategy, patternLabel } from "../../../core/model/enums.ts";
import type { HomeProgrammeBody } from "../../../core/model/contract/index.ts";
import { isValidEmail } from "../../../core/rules/email.ts";
import { eyesFor } from "../../../core/rules/eyes.ts";
import { offeredPatterns, strategiesFor } from "../../../core/rules/pattern-options.ts";
import { EVERY_DAYS_RANGE } from "../../../core/home/programme.ts";
import { eyeNames, strategyNames } from "../../i18n/names.ts";
import { browserTimeZone } from "../../results/print-page.ts";
import { useApi, useCache } from "../../state/client.ts";
import { todayIso } from "../../state/today.ts";
import { useNotify } from "../../ui/notifications.ts";
import { Select } from "../../ui/Select.tsx";
import { TextInput } from "../../ui/TextInput.tsx";
import { ruleMessageDescriptors } from "../../i18n/rule-messages.ts";
import { refusalWords } from "./home-words.ts";

// "Lend a headset" (issue 31 §1): a home programme is the seeds' stand-alone mode in scheduled form, so the form offers
// what the stand-alone form offers (core/rules: the §5 table's patterns, the pattern's strategies, its eyes in
// stand-alone mode, where 'Both' is not offered; a programme's both eyes are its two eyes, each once a session).
// The server checks again with core/home's checkProgramme and its refusal names the rule (home-words.ts).

type FrequencyKind = "daily" | "weekly" | "every" | "monthly";

/** The eye choices: each eye the pattern offers in stand-alone mode, and both when it offers right and left. */
const eyeChoices = (pattern: Pattern): ReadonlyArray<readonly Eye[]> => {
  const eyes = eyesFor(pattern, "standalone");
  const both = eyes.includes(Eye.Right) && eyes.includes(Eye.Left) ? [[Eye.Right, Eye.Left] as const] : [];
  return [...both, ...eyes.map((e) => [e] as const)];
};
const eyesKey = (eyes: readonly Eye[]) => eyes.join("+");

/** A date N days after an ISO date. */
const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

export function LendHeadsetForm({ patientId, onLent, onCancel }: { patientId: string; onLent: () => void; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const api = useApi();
  const notify = useNotify();
  const devices = useCache(CacheKey.Devices, {});
  const [deviceSn, setDeviceSn] = useState("");
  const [pattern, setPattern] = useState<Pattern>(offeredPatterns[0]!);
  const [strategy, setStrategy] = useState<Strategy>(strategiesFor(offeredPatterns[0]!)[0]!);
  const [eyes, setEyes] = useState(eyesKey(eyeChoices(offeredPatterns[0]!)[0]!));
  const [frequency, setFrequency] = useState<FrequencyKind>("weekly");
  const [everyDays, setEveryDays] = useState("3");
  const [start, setStart] = useState(todayIso());
  const [end, setEnd] = useState(addDays(todayIso(), 364));
  const [reminderTime, setReminderTime] = useState("18:00");
  // Optional: the patient record has no e-mail field; without an address reminders are noted, not sent.
  const [reminderEmail, setReminderEmail] = useState("");
  const [emailError, setEmailError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choosePattern = (p: Pattern) => {
    setPattern(p);
    // The pattern's strategies and eyes (core/rules); a choice the new pattern does not offer falls to its first.
    const strategies = strategiesFor(p);
    if (!strategies.includes(strategy)) setStrategy(strategies[0]!);
    const choices = eyeChoices(p).map(eyesKey);
    if (!choices.includes(eyes)) setEyes(choices[0]!);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (deviceSn === "") return;
    const email = reminderEmail.trim();
    if (email !== "" && !isValidEmail(email)) {
      setEmailError(true);
      return;
    }
    setEmailError(false);
    setBusy(true);
    setError(null);
    const body: HomeProgrammeBody = {
      patientId,
      deviceSn,
      pattern,
      strategy,
      eyes: eyes.split("+").map((e) => Number(e) as Eye),
      frequency: frequency === "every" ? { kind: "every", days: Number(everyDays) } : { kind: frequency },
      start,
      end,
      reminderTime,
      timeZone: browserTimeZone(),
      ...(email ? { reminderEmail: email } : {}),
    };
    try {
      await api.call("home.programmeCreate", { body });
      notify({ kind: "success", text: t`The headset is lent. It downloads its programme when it connects.` });
      onLent();
    } catch (e) {
      setError(refusalWords(e, i18n));
    } finally {
      setBusy(false);
    }
  };

  const frequencies = [
    { value: "daily" as const, label: t`Daily` },
    { value: "weekly" as const, label: t`Weekly` },
    { value: "every" as const, label: t`Every N days` },
    { value: "monthly" as const, label: t`Monthly` },
  ];
  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="lend-heading">
      <h2 id="lend-heading" style={{ margin: 0 }}>{t`Lend a headset`}</h2>
      <p className="field-hint">{t`The headset repeats one test at home on this schedule and is bound to this patient until it is returned.`}</p>
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      <div className="grid-2">
        <Select
          label={t`Headset`}
          required
          value={deviceSn}
          placeholder={devices.status === "loading" ? t`Loading…` : t`Choose a headset`}
          options={(devices.data ?? []).map((d) => ({ value: d.deviceSn, label: d.alias ? `${d.alias} (${d.deviceSn})` : d.deviceSn }))}
          onChange={setDeviceSn}
        />
        <Select
          label={t`Pattern`}
          value={String(pattern)}
          options={offeredPatterns.map((p) => ({ value: String(p), label: patternLabel[p] }))}
          onChange={(v) => choosePattern(Number(v) as Pattern)}
        />
        <Select
          label={t`Strategy`}
          value={String(strategy)}
          options={strategiesFor(pattern).map((s) => ({ value: String(s), label: i18n._(strategyNames[s]) }))}
          onChange={(v) => setStrategy(Number(v) as Strategy)}
        />
        <Select
          label={t`Eyes`}
          value={eyes}
          options={eyeChoices(pattern).map((c) => ({
            value: eyesKey(c),
            label: c.length === 2 ? i18n._(eyeNames[Eye.Both]) : i18n._(eyeNames[c[0]!]),
          }))}
          onChange={setEyes}
        />
        <Select<FrequencyKind> label={t`Frequency`} value={frequency} options={frequencies} onChange={setFrequency} />
        {frequency === "every" && (
          <div className="field">
            <label htmlFor="lend-every">{t`Every how many days`}</label>
            <input
              id="lend-every"
              className="input"
              type="number"
              min={EVERY_DAYS_RANGE.min}
              max={EVERY_DAYS_RANGE.max}
              value={everyDays}
              onChange={(e) => setEveryDays(e.target.value)}
            />
          </div>
        )}
        <div className="field">
          <label htmlFor="lend-start">{t`Start date`}</label>
          <input id="lend-start" className="input" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="lend-end">{t`End date`}</label>
          <input id="lend-end" className="input" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="lend-reminder">{t`Reminder time`}</label>
          <input id="lend-reminder" className="input" type="time" value={reminderTime} onChange={(e) => setReminderTime(e.target.value)} />
        </div>
        <TextInput
          id="lend-reminder-email"
          type="email"
          autoComplete="off"
          label={t`Reminder e-mail (optional)`}
          value={reminderEmail}
          onChange={setReminderEmail}
          error={emailError ? ruleMessageDescriptors.emailInvalid : undefined}
          hint={t`Where reminders of missed sessions go. Without one they are not sent.`}
        />
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy || deviceSn === ""}>
          {busy ? t`Lending…` : t`Lend headset`}
        </button>
        <button type="button" className="btn" onClick={onCancel}>{t`Cancel`}</button>
      </div>
    </form>
  );
}
