// core/rules: the one place that knows the measurement configuration rules and the form validations of both seeds.
// Every export is a pure function or a constant; nothing reads a clock (today / the current year are passed in).
// Validation results carry a stable message key plus the English seed text; the web translates the key.

// Measurement form: options, dependencies and the reducer
export * from "./form-context.ts"; // FormMode, Variant, ConfigContext
export * from "./pattern-options.ts"; // the §5 table: patternOptions, strategiesFor, showtimesFor, offeredPatterns
export * from "./size-by-strategy.ts"; // sizesFor
export * from "./sors-locations.ts"; // sorsLocationList (no 16), SORS screening = 16, default 36
export * from "./eyes.ts"; // eyesFor ('Both' only when creating), amslerEyes, validateAmslerEye
export * from "./tutorial.ts"; // tutorialAvailable, tutorialNeedsGazeTracking
export * from "./allowed-config.ts"; // configViolations, isConfigAllowed
export * from "./form-dependencies.ts"; // onPatternChange, onStrategyChange, ..., onPatientSelected, normaliseConfig
export * from "./config-reducer.ts"; // applyConfigChange, ConfigChange
export * from "./defaults.ts"; // defaultMeasurementConfig(variant)
export * from "./prefill.ts"; // lastMeasurement, prefillConfig, openMeasurementForm
export * from "./display-name.ts"; // displayNameFor
export * from "./notes.ts"; // notesLimit, notesCounter, validateNotes, clipNotes
export * from "./duration.ts"; // estimatedDurationSeconds, durationBaseTime
export * from "./required-fields.ts"; // missingMeasurementFields, validateMeasurementConfig, canSaveMeasurement
export * from "./form-options.ts"; // measurementFormOptions: every select list, lock, tutorial toggle and estimate at once

// Shared and account forms
export * from "./messages.ts"; // ruleMessages, RuleMessage, FieldErrors
export * from "./text-input.ts"; // isAllowedTextInput, validateTextInput
export * from "./password.ts"; // passwordProblems, validatePasswordForm, canSubmitPasswordForm
export * from "./email.ts"; // validateEmailTwice, emailToSend
export * from "./calendar-date.ts"; // parseIsoDate, formatIsoDate, addYears, addDays
export * from "./birthdate.ts"; // birthdateWindow, validateBirthdate
export * from "./birthdate-filter.ts"; // birthdateFilterOptions, birthdateFilter
export * from "./regulatory-region.ts"; // euCountryCodes, regulatoryRegionForCountry
export * from "./patient-form.ts"; // validatePatientForm, patientPayload
export * from "./login.ts"; // validateLogin, loginCredentials
export * from "./user-admin.ts"; // grantableRoles, inviteRefusal, roleChangeRefusal, deleteRefusal
