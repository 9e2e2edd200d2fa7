import { useState } from "react";
import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { categoryNames, faq, type FaqCategory } from "./faq.ts";
import { infoEmail, supportEmail } from "./contacts.ts";
import { RegulatoryLabel } from "./RegulatoryLabel.tsx";
import { BatteryLedFigure } from "./BatteryLedFigure.tsx";
import { useTitle } from "../../ui/useTitle.ts";
import { useAtomValue } from "jotai";
import { languageAtom } from "../../state/language.ts";
import { hasPicture, helpPictureUrl } from "./help-pictures.ts";

const chips: Array<FaqCategory | "all"> = ["all", "patient", "measurement", "device", "account", "troubleshooting"];

/** Help centre: FAQ with category chips, expandable items, the label, contact and info mail, the manual (accounts seed §2). */
export default function SupportPage() {
  const { t, i18n } = useLingui();
  useTitle(t`Help centre`);
  // Pictures of the screens in the interface language (scripts/help-pictures.ts takes one per language).
  const language = useAtomValue(languageAtom);
  const [category, setCategory] = useState<FaqCategory | "all">("all");
  const shown = faq.filter((f) => category === "all" || f.category === category);
  return (
    <div className="page stack">
      <h1>{t`Help centre`}</h1>
      <div className="row">
        <a className="btn btn-primary" href={`mailto:${supportEmail}`}>{t`Contact support`}</a>
        <a className="btn" href={`mailto:${infoEmail}`}>{t`Ask for information`}</a>
        <Link className="btn" to="/users-manual">{t`Open the user manual`}</Link>
      </div>
      <section aria-labelledby="faq-heading">
        <h2 id="faq-heading">{t`Frequently asked questions`}</h2>
        <fieldset className="chips" aria-label={t`Filter questions by category`}>
          {chips.map((c) => (
            <button key={c} type="button" className="chip" aria-pressed={c === category} onClick={() => setCategory(c)}>
              {i18n._(categoryNames[c])}
            </button>
          ))}
        </fieldset>
        {shown.map((item) => (
          <details key={item.id} className="faq" id={`faq-${item.id}`}>
            <summary>{i18n._(item.question)}</summary>
            <div className="faq-body">
              <p>{i18n._(item.answer)}</p>
              {item.illustration === "battery-led" && <BatteryLedFigure />}
              {item.link && (
                <p>
                  <Link to={item.link.to}>{i18n._(item.link.label)}</Link>
                </p>
              )}
              {hasPicture(item.id) && (
                <img
                  className="faq-picture"
                  src={helpPictureUrl(language, item.id)}
                  loading="lazy"
                  data-testid="faq-picture"
                  alt={t`The screen in Isopter: ${i18n._(item.question)}`}
                />
              )}
              {item.who && (
                <div className="box box-who">
                  <strong>{t`Who can use this feature`}</strong>
                  <br />
                  {i18n._(item.who)}
                </div>
              )}
              {item.note && (
                <div className="box box-note">
                  <strong>{t`Note`}</strong>
                  <br />
                  {i18n._(item.note)}
                </div>
              )}
            </div>
          </details>
        ))}
      </section>
      <section aria-labelledby="label-heading">
        <h2 id="label-heading">{t`Regulatory information`}</h2>
        <RegulatoryLabel />
      </section>
    </div>
  );
}
