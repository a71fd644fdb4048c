// The values a CSV profile's settings may take: one home for the schema (profile.ts) and for the
// reading of valid profiles without it (plain-profile.ts), so the two cannot drift apart.
export const PROFILE_ENCODINGS = ['utf-8', 'iso-8859-1', 'windows-1252', 'utf-16le', 'utf-16be'] as const;
export type ProfileEncoding = (typeof PROFILE_ENCODINGS)[number];

export const THOUSANDS_SEPARATORS = ['', ' ', '.', ',', "'", '\u00a0'] as const;

/** YYYY, MM and DD with at most one of . / - or space between them. */
export const DATE_FORMAT = /^(?=.*YYYY)(?=.*MM)(?=.*DD)[YMD./ -]{8,10}$/;
