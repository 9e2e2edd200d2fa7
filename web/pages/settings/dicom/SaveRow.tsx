import { useLingui } from "@lingui/react/macro";
import type { CardSave } from "./use-card-save.ts";

// A card's Save button with what became of the save: "Saved" in a status region (announced), a failure as an alert.
export function SaveRow({ card }: { card: CardSave }) {
  const { t } = useLingui();
  return (
    <>
      <div className="row dicom-save">
        <button type="submit" className="btn btn-primary" disabled={card.state === "saving"}>
          {card.state === "saving" ? t`Saving…` : t`Save`}
        </button>
        <span role="status" className="dicom-saved">
          {card.state === "saved" ? t`Saved.` : ""}
        </span>
      </div>
      {card.state === "failed" && (
        <div className="alert alert-error dicom-result" role="alert">
          <p className="dicom-result-title">{t`The settings could not be saved. Try again later.`}</p>
          {card.failure && (
            <p className="dicom-result-detail" data-user-text>
              {card.failure}
            </p>
          )}
        </div>
      )}
    </>
  );
}
