import { useId, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { ApiError } from "../../../core/model/contract/errors.ts";
import { SSO_CALLBACK_PATH, ssoLoginPath, type SsoSettings, type SsoSettingsBody } from "../../../core/model/single-sign-on.ts";
import { useClient } from "../../state/client.ts";
import { useRead } from "../../state/use-read.ts";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TextInput } from "../../ui/TextInput.tsx";
import { Toggle } from "../../ui/Toggle.tsx";

// "Single sign-on" on the users page (issue 33 item 1): the organisation's OpenID Connect provider as a manager or an
// administrator sets it: the login link's name, the provider's name, issuer, client id and secret (never shown again:
// kept sealed on the server), the claim and its values per role, and whether staff may still log in with a password.
// It shows the addresses to register at the provider. The server checks every field (core/model/single-sign-on.ts).

type Form = Omit<SsoSettingsBody, "roleMap" | "clientSecret"> & { clientSecret: string; user: string; manager: string; admin: string };

const formOf = (s: SsoSettings | null): Form => ({
  slug: s?.slug ?? "",
  displayName: s?.displayName ?? "",
  issuer: s?.issuer ?? "",
  clientId: s?.clientId ?? "",
  clientSecret: "",
  roleClaim: s?.roleClaim ?? "groups",
  passwordLogin: s?.passwordLogin ?? true,
  user: s?.roleMap.user.join(", ") ?? "",
  manager: s?.roleMap.manager.join(", ") ?? "",
  admin: s?.roleMap.admin.join(", ") ?? "",
});

const values = (text: string) =>
  text
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

export function SingleSignOnSection() {
  const { t } = useLingui();
  const settings = useRead("sso.settings", {});
  const headingId = useId();
  // Kept here: the form starts again from the settings as stored after each save (the secret field empty again).
  const [result, setResult] = useState<Result>(null);
  // An organisation without a provider sees one button, not the whole form, on its users page.
  const [setUp, setSetUp] = useState(false);
  return (
    <section className="card stack" aria-labelledby={headingId} data-testid="single-sign-on-settings">
      <h2 id={headingId}>{t`Single sign-on`}</h2>
      <p className="muted">
        {t`Staff sign in through your organisation's identity provider (OpenID Connect), and a leaver switched off there is switched off here.`}
      </p>
      {settings.status === "loading" && <Skeleton kind="fields" count={4} />}
      {settings.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The single sign-on settings cannot be displayed.`}</div>
      )}
      {settings.status === "success" && settings.data === null && !setUp && (
        <div>
          <button type="button" className="btn" onClick={() => setSetUp(true)}>{t`Set up single sign-on`}</button>
        </div>
      )}
      {settings.status === "success" && (settings.data !== null || setUp) && (
        <SsoForm key={JSON.stringify(settings.data)} saved={settings.data} result={result} setResult={setResult} />
      )}
    </section>
  );
}

type Result = { kind: "success" | "error"; text: string } | null;

function SsoForm({ saved, result, setResult }: { saved: SsoSettings | null; result: Result; setResult(r: Result): void }) {
  const { t } = useLingui();
  const client = useClient();
  const [form, setForm] = useState<Form>(formOf(saved));
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<Form>) => {
    setForm({ ...form, ...change });
    setResult(null);
  };
  const origin = window.location.origin;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const { user, manager, admin, clientSecret, ...rest } = form;
    try {
      await client.signOn.saveSettings({
        ...rest,
        clientSecret: clientSecret === "" ? null : clientSecret,
        roleMap: { user: values(user), manager: values(manager), admin: values(admin) },
      });
      setResult({ kind: "success", text: t`Single sign-on saved.` });
    } catch (e) {
      const field = e instanceof ApiError && e.field ? ` (${e.field.replace(/^body\./, "")})` : "";
      setResult({ kind: "error", text: `${t`Not saved:`} ${e instanceof Error ? e.message : String(e)}${field}` });
    }
    setBusy(false);
  };
  const remove = async () => {
    setBusy(true);
    setResult(null);
    await client.signOn.removeSettings().catch(() => undefined);
    setBusy(false);
  };

  return (
    <form onSubmit={submit} noValidate className="stack">
      <TextInput label={t`Login link name`} value={form.slug} onChange={(slug) => set({ slug: slug.trim().toLowerCase() })} required />
      {form.slug && (
        <p className="field-hint">
          {t`Your staff's login link:`} <code>{`${origin}${ssoLoginPath(form.slug)}`}</code>
        </p>
      )}
      <TextInput
        label={t`Provider name on the login page`}
        value={form.displayName}
        onChange={(displayName) => set({ displayName })}
        required
      />
      <TextInput label={t`Issuer URL`} value={form.issuer} onChange={(issuer) => set({ issuer: issuer.trim() })} required />
      <TextInput label={t`Client ID`} value={form.clientId} onChange={(clientId) => set({ clientId: clientId.trim() })} required />
      <TextInput
        label={saved?.clientSecretSet ? t`Client secret (stored; leave empty to keep it)` : t`Client secret`}
        type="password"
        value={form.clientSecret}
        onChange={(clientSecret) => set({ clientSecret })}
        autoComplete="off"
      />
      <p className="field-hint">
        {t`Register these addresses at the provider. Redirect URI:`} <code>{`${origin}${SSO_CALLBACK_PATH}`}</code>{" "}
        {t`Sign-out redirect URI: the login link.`}
      </p>
      <TextInput
        label={t`Claim with groups or roles`}
        value={form.roleClaim}
        onChange={(roleClaim) => set({ roleClaim: roleClaim.trim() })}
        required
      />
      <p className="field-hint">{t`Values of that claim per role, separated by commas. Someone with none of them cannot sign in, and their account is disabled.`}</p>
      <TextInput label={t`Values for users`} value={form.user} onChange={(user) => set({ user })} />
      <TextInput label={t`Values for managers`} value={form.manager} onChange={(manager) => set({ manager })} />
      <TextInput label={t`Values for administrators`} value={form.admin} onChange={(admin) => set({ admin })} />
      <Toggle
        label={t`Staff may also log in with a password`}
        checked={form.passwordLogin}
        onChange={(passwordLogin) => set({ passwordLogin })}
      />
      <p className="field-hint">{t`Administrators can always log in with their password: the way back if the provider is gone.`}</p>
      {result && (
        <div className={`alert alert-${result.kind}`} role={result.kind === "success" ? "status" : "alert"}>
          {result.text}
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>{t`Save single sign-on`}</button>
        {saved && <button type="button" className="btn" disabled={busy} onClick={() => void remove()}>{t`Turn single sign-on off`}</button>}
      </div>
    </form>
  );
}
