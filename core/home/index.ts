// core/home: home monitoring's rules (issue 31), pure; dates and the clinic's time zone come in. The server checks
// programmes, uploads and adherence with it (simulator/server/home) and triages each stored home result (review/).
export * from "./programme.ts"; // HomeProgramme (schema), checkProgramme: the seeds' rules and ours, each named
export * from "./due.ts"; // sessions and their windows, dueSessions, sessionFor, assignSessions
export * from "./repeat.ts"; // a repeat: a one-off session of its own slot (REPEAT_DAYS), slotFor, repeatState
export * from "./adherence.ts"; // adherence (due, done, missed, rate), belowThreshold, missedBefore
export * from "./unreliable.ts"; // unreliableReasons: catch trials and gaze beyond limits
export * from "./outlier.ts"; // mdOutlier (3 dB from the median of the last five), newClusters
export * from "./triage.ts"; // triage (the review queue's flags), orderByNeed
