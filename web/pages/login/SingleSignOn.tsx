import { useEffect, useState } from "react";
import { useStore } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { Client } from "../../../core/client/client.ts";
import type { SsoLoginOptions } from "../../../core/model/single-sign-on.ts";
import { loadClient } from "../../state/lazy-client.ts";

// "Sign in with <provider>" on an organisation's login link, /login/<organisation> (issue 33 item 1). Our choice of how
// the page knows the organisation: the link, which a hospital's IT publishes on its intranet or app portal, as they do
// for every system behind their provider; a username-first step would tell anyone which names exist and where. Loaded
// only on such a link, with the client (the plain /login's first paint stays as it was). Where the organisation has
// turned passwords off, the password form stays hidden behind "Administrator sign-in" (administrators keep passwords:
// the way back when the provider is gone).

type Loaded = { client: Client; options: SsoLoginOptions } | "unknown" | "failed" | null;

export default function SingleSignOn({
  organisation,
  onPasswordHidden,
}: {
  organisation: string;
  onPasswordHidden(hidden: boolean): void;
}) {
  const { t } = useLingui();
  const store = useStore();
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [busy, setBusy] = useState(false);
  const [down, setDown] = useState(false);
  const [adminForm, setAdminForm] = useState(false);

  useEffect(() => {
    let live = true;
    loadClient(store)
      .then(async (client) => ({ client, options: await client.signOn.options(organisation) }))
      .then(
        (found) => {
          if (!live) return;
          setLoaded(found);
          setDown(!found.options.providerReachable);
          onPasswordHidden(!found.options.passwordLogin);
        },
        (e: { status?: number }) => live && setLoaded(e.status === 404 ? "unknown" : "failed"),
      );
    return () => {
      live = false;
    };
  }, [organisation, store, onPasswordHidden]);

  // Nothing until the client (and with it the full catalog, which holds this component's words) is in.
  if (loaded === null) return null;
  if (loaded === "unknown")
    return (
      <div
        className="alert alert-warning"
        role="status"
      >{t`This login link is not known. Check the address, or log in with your password.`}</div>
    );
  if (loaded === "failed")
    return (
      <div
        className="alert alert-warning"
        role="status"
      >{t`Your organisation's sign-in cannot be shown just now. Log in with your password, or try again later.`}</div>
    );

  const { client, options } = loaded;
  const provider = options.displayName;
  const signIn = async () => {
    setBusy(true);
    try {
      window.location.assign(await client.signOn.begin(organisation, window.location.origin));
    } catch {
      setDown(true);
      setBusy(false);
    }
  };

  return (
    <div className="stack sso-login" data-testid="single-sign-on">
      <p className="muted">{options.organisationName}</p>
      {down && (
        <div className="alert alert-warning" role="alert">
          {options.passwordLogin
            ? t`${provider} cannot be reached just now. Log in with your password below.`
            : t`${provider} cannot be reached just now. Administrators can log in with their password.`}
        </div>
      )}
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void signIn()}>
        {busy ? t`Going to ${provider}…` : t`Sign in with ${provider}`}
      </button>
      {options.passwordLogin ? (
        <p className="sso-or muted">{t`or with your Isopter password`}</p>
      ) : (
        !adminForm && (
          <p className="muted">
            {t`Password login is off for this organisation.`}{" "}
            <button
              type="button"
              className="btn-link"
              onClick={() => {
                setAdminForm(true);
                onPasswordHidden(false);
              }}
            >{t`Administrator login`}</button>
          </p>
        )
      )}
    </div>
  );
}
