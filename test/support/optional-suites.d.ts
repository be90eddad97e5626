/** The suites this machine cannot run (optional-suites.js). */
export function leftOutSuites(): Array<{ file: string; what: string; missing: string }>;
