import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

// The help centre's questions and answers (accounts seed §2 lists the topics; the text is ours).

export type FaqCategory = "patient" | "measurement" | "device" | "account" | "troubleshooting";

export interface FaqItem {
  id: string;
  category: FaqCategory;
  question: MessageDescriptor;
  answer: MessageDescriptor;
  /** "who can use this feature" box */
  who?: MessageDescriptor;
  /** notes box */
  note?: MessageDescriptor;
  /** A drawing beside the answer (the answer text says the same, so it is decorative). */
  illustration?: "battery-led";
  /** A page of the help centre that answers at length. */
  link?: { to: string; label: MessageDescriptor };
}

export const categoryNames: Record<FaqCategory | "all", MessageDescriptor> = {
  all: msg`All`,
  patient: msg`Patient`,
  measurement: msg`Measurement`,
  device: msg`Device`,
  account: msg`Account`,
  troubleshooting: msg`Troubleshooting`,
};

const everyone = msg`Every logged-in user: clinicians, technicians and managers.`;

export const faq: FaqItem[] = [
  {
    id: "create-patient",
    category: "patient",
    question: msg`How do I create a patient?`,
    answer: msg`On the home page, click Create patient. Fill in the name, the patient ID, the birthdate, the gender and the patient's language, then click Save twice: the first click asks you to check the details, the second saves them.`,
    who: everyone,
    note: msg`Names and IDs may contain letters, digits, spaces, commas, hyphens and underscores only.`,
  },
  {
    id: "edit-patient",
    category: "patient",
    question: msg`How do I edit a patient's details?`,
    answer: msg`Open the patient from the search on the home page and click Edit in the header. Change the fields and click Save twice to confirm.`,
    who: everyone,
  },
  {
    id: "delete-patient",
    category: "patient",
    question: msg`How do I delete a patient, and can I get them back?`,
    answer: msg`Open the patient and click Delete, then confirm. The patient goes to the bin together with their tests. From the bin you can restore the patient, or delete them for good.`,
    who: everyone,
    note: msg`Deleting from the bin cannot be undone.`,
  },
  {
    id: "view-patient",
    category: "patient",
    question: msg`How do I find a patient and see their results?`,
    answer: msg`Type part of the name or the patient ID in the search box on the home page. To narrow the list, choose the day, month and year of birth. Click a patient to open their tests, grouped by date.`,
    who: everyone,
  },
  {
    id: "plan-measurement",
    category: "measurement",
    question: msg`How do I plan a measurement?`,
    answer: msg`Open the technician view and click the plus button on the headset's lane. Choose the patient, the eye, the pattern and the strategy, then save. The measurement joins the headset's queue and starts when the technician presses play.`,
    who: everyone,
  },
  {
    id: "view-measurement",
    category: "measurement",
    question: msg`Where do I see the result of a measurement?`,
    answer: msg`Recent tests on the home page link straight to the result. You can also open the patient and pick the measurement in the perimetry list. Notes can be added to every measurement.`,
    who: everyone,
  },
  {
    id: "restart-measurement",
    category: "measurement",
    question: msg`How do I restart a measurement?`,
    answer: msg`Stop the running measurement on the headset's lane in the technician view, then plan it again with the same settings. The stopped measurement keeps no result.`,
    who: everyone,
    note: msg`If the patient needs a break, pause instead of stopping: the measurement continues where it stopped.`,
  },
  {
    id: "standalone",
    category: "measurement",
    question: msg`What is stand-alone mode?`,
    answer: msg`In stand-alone mode a headset repeats one measurement without a network connection. Results are kept on the headset and uploaded once it is back online.`,
    who: everyone,
  },
  {
    id: "home-monitoring",
    category: "measurement",
    question: msg`Home monitoring and the review queue`,
    answer: msg`On a patient's page, Home monitoring, click Lend a headset: choose the headset, the eyes, the pattern and strategy, how often, the start and end dates and a reminder time. The headset tests the patient at home on that schedule and uploads each result once. Review lists new home results by need (unreliable, outlier, progression, missed sessions); open one to see it with its series, then mark it reviewed, add a note, ask for a repeat or book a clinic visit. Its Adherence tab lists patients who miss sessions.`,
    who: everyone,
    note: msg`When the headset comes back, click Headset returned: from then on it can see and upload nothing of the patient.`,
  },
  {
    id: "device-setup",
    category: "device",
    question: msg`How do I set up a headset?`,
    answer: msg`Charge the headset and the clicker, switch the headset on and connect it to the clinic's Wi-Fi. It appears in the technician view once it is connected; give it an alias so everyone recognises it.`,
  },
  {
    id: "battery-led",
    category: "device",
    question: msg`What do the battery LED colours mean?`,
    answer: msg`Blue: battery above 20 %. Flashing red: below 20 %. Green: fully charged. Yellow while charging: below 98 %. Red while charging: below 20 %.`,
    illustration: "battery-led",
  },
  {
    id: "cleaning",
    category: "device",
    question: msg`How do I clean and store a headset?`,
    answer: msg`Wipe the face cushion and the clicker with a disinfecting wipe after every patient, and the lenses with a dry microfibre cloth only. Store the headset in its case, away from direct sunlight, which can damage the lenses.`,
  },
  {
    id: "change-password",
    category: "account",
    question: msg`How do I change my password?`,
    answer: msg`Open Settings, type your current password and the new one twice, then click Change password. A password needs at least 8 characters with an uppercase letter and a special character.`,
    who: everyone,
  },
  {
    id: "reset-password",
    category: "account",
    question: msg`I forgot my password. What do I do?`,
    answer: msg`On the login page, click Forgot your password? and type your e-mail address twice. Open the link in the e-mail you receive and choose a new password. The link expires after a while; if it has, request a new one.`,
    who: everyone,
  },
  {
    id: "invite-users",
    category: "account",
    question: msg`How do I invite or delete users?`,
    answer: msg`Open Users, type one or more e-mail addresses, choose a role and click Send invitations. Each person receives a link to choose a password. To remove someone, click Delete on their row and confirm.`,
    who: msg`Managers only.`,
    note: msg`Deleting a user revokes their access to all tests and results in the organisation.`,
  },
  {
    id: "single-sign-on",
    category: "account",
    question: msg`How do I sign in with my organisation's account (single sign-on)?`,
    answer: msg`Open your organisation's login link, /login/ followed by its name, which your IT publishes, and click Sign in with and your provider's name. If the provider cannot be reached, the page says so: log in with your password below where your organisation allows it. Logging out also ends your session at the provider.`,
    who: everyone,
    note: msg`Managers set it up under Users, Single sign-on: issuer URL, client ID and secret, the claim with groups or roles and its values per role, and the addresses shown to register at the provider. The provider's answer creates, links by e-mail or disables accounts. Password login can be turned off; administrators keep theirs as the way back.`,
  },
  {
    id: "two-step-sign-in",
    category: "account",
    question: msg`How do I use two-step sign-in?`,
    answer: msg`In Settings, Two-step sign-in, click Set up two-step sign-in. Scan the QR code with an authenticator app, or type the key, and enter the app's first code. Save the ten recovery codes: they are shown once. At each sign-in, enter the app's code; after losing your phone, a recovery code, each works once. To turn it off, type your password again.`,
    who: everyone,
    note: msg`Without phone or recovery codes, ask a manager to reset it. Managers can require it for the organisation in Settings (then nobody can turn it off); Users lists who has it, with a Reset button.`,
  },
  {
    id: "import-results",
    category: "patient",
    question: msg`How do I bring in fields from another perimeter?`,
    answer: msg`In Settings, Import results, drop the files or a whole folder: DICOM OPV files from any perimeter (for example a Humphrey or Octopus), FHIR bundles, or a visualFields CSV. Check only says per file what would happen and saves nothing. Patients are matched by patient ID, else by name and birth date, and created when nobody matches. On a patient's page, Import results takes only that patient's fields.`,
    who: msg`Managers only.`,
    note: msg`Importing the same file again changes nothing. An imported field keeps the perimeter's own analysis beside Isopter's, and the progression chart marks where the device or strategy changes.`,
  },
  {
    id: "fetch-priors",
    category: "patient",
    question: msg`How do I fetch a patient's earlier fields from the PACS?`,
    answer: msg`Once the PACS is set in Settings, DICOM network, open the patient and click Fetch priors. Isopter asks the PACS for the patient's visual fields under their patient ID and imports those it does not have yet.`,
    who: msg`Managers only.`,
  },
  {
    id: "worklist",
    category: "measurement",
    question: msg`Can tests come from our worklist instead of being typed?`,
    answer: msg`Yes. In Settings, DICOM network, enter the worklist provider's address, port and AE title, the station's AE title and the headset to queue on, and switch on Query periodically. Each new scheduled step becomes a test on that headset, with its pattern and strategy from the step's protocol code. Query now asks at once; Check only shows what would be queued.`,
    who: msg`Managers only.`,
    note: msg`A step the worklist lists again is not queued twice. Codes your RIS uses of its own can be added as local protocol codes.`,
  },
  {
    id: "progression-accuracy",
    category: "measurement",
    question: msg`How reliable is progression analysis?`,
    answer: msg`Isopter measures every progression method on simulated eyes: how often it calls a stable eye worsening, and how soon it finds loss. The page below shows the measured table, how the eyes were simulated and each method's paper.`,
    who: everyone,
    link: { to: "/support/progression-accuracy", label: msg`How reliable is progression analysis` },
  },
  {
    id: "troubleshooting-offline",
    category: "troubleshooting",
    question: msg`The page says there is no internet connection.`,
    answer: msg`Check the computer's network cable or Wi-Fi. The page comes back by itself as soon as the connection returns; nothing you saved is lost.`,
  },
  {
    id: "troubleshooting-headset",
    category: "troubleshooting",
    question: msg`A headset does not appear or shows as disconnected.`,
    answer: msg`Check that the headset is switched on, charged and connected to the same network as the clinic. Restart the headset if it stays disconnected for more than a minute.`,
  },
  {
    id: "troubleshooting-session",
    category: "troubleshooting",
    question: msg`I was logged out unexpectedly.`,
    answer: msg`Sessions end after a period of inactivity, or when you log in with the same account from another browser. Log in again; planned measurements and results are not affected.`,
  },
];
