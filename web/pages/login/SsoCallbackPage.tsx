import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { ApiError } from "../../../core/model/contract/errors.ts";
import { ssoLoginPath } from "../../../core/model/single-sign-on.ts";
import { useClient } from "../../state/client.ts";
import { useTitle } from "../../ui/useTitle.ts";

// Where the identity provider sends the browser back (/login/sso/callback, issue 33 item 1): the query goes to the
// server once (the sign-in is single-use: a strict-mode second effect must not spend it twice), then home; a refusal
// says why in the interface's words, with the server's reason beside it, and links back to the login link.

export default function SsoCallbackPage() {
  const { t } = useLingui();
  useTitle(t`Signing in`);
  const client = useClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    client.signOn.complete(search).then(
      () => navigate("/home", { replace: true }),
      (e: unknown) => setFailure(e instanceof ApiError ? e : new ApiError({ status: 0, responseType: undefined, message: String(e) })),
    );
  }, [client, search, navigate]);

  const organisation = client.signOn.organisation;
  const lead =
    failure?.responseType === "forbidden"
      ? t`Your identity provider grants you no role in Isopter. Ask your administrator for access.`
      : failure?.responseType === "invalid_credentials"
        ? t`The sign-in through your identity provider was refused.`
        : failure?.status === 503
          ? t`Your identity provider cannot be reached just now.`
          : t`The sign-in could not be completed.`;

  return (
    <main className="center-page">
      <div className="card auth-card">
        <p className="brand">Isopter</p>
        <h1>{failure ? t`Sign-in refused` : t`Signing in…`}</h1>
        {failure && (
          <>
            <div className="alert alert-error" role="alert">
              <strong>{lead}</strong> <span lang="en">{failure.message}</span>
            </div>
            <Link to={organisation ? ssoLoginPath(organisation) : "/login"}>{t`Back to the login page`}</Link>
          </>
        )}
      </div>
    </main>
  );
}
