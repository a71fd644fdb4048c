// Build step (`npm run build`, `prepare`): writes the value of each shipped CSV profile
// (config/profiles/*.yaml) into dist/src/formats/csv-profile/built/, so the installed CLI reads a
// shipped profile without loading the yaml library (src/formats/csv-profile/built-profiles.ts).
// Runs after tsc, on its output.
const { writeBuiltProfiles } = await import('../dist/src/formats/csv-profile/built-profiles.js');
const { yamlValue } = await import('../dist/src/formats/csv-profile/plain-profile.js');
const { parseDocument } = await import('yaml');
writeBuiltProfiles(
  (text) => yamlValue(parseDocument, text),
  [new URL('../config/profiles/', import.meta.url)],
  new URL('../dist/src/formats/csv-profile/built/', import.meta.url),
);
