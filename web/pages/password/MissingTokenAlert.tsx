import { useLingui } from "@lingui/react/macro";

/**
 * "Missing token: a message says so." (accounts seed §2) On the token page when its token is blank, and on the request
 * page when the link lost its token (/password-reset/ with nothing after the slash, as a cut e-mail link arrives).
 */
export function MissingTokenAlert() {
  const { t } = useLingui();
  return (
    <div className="alert alert-error" role="alert" data-testid="reset-token-missing">
      {t`The reset link has no token. Open the link from the e-mail again, or request a new one.`}
    </div>
  );
}
