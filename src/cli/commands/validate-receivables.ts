// `settle validate FILE --profile P` with a receivables profile (kind: receivables): reads the
// file of open receivables the way the receivables job will (src/formats/receivables), and says
// how many lines it holds or what is wrong with each bad one. Exit 0 valid, 1 invalid.
import { readFile } from 'node:fs/promises';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { translate, type Locale } from '../../i18n/index.js';
import { loadReceivablesProfile, readReceivables, receivableProblemsText } from '../../formats/receivables/index.js';

export async function validateReceivables(
  file: string,
  name: string,
  dirs: readonly string[],
  output: { json: boolean; io: { out: (text: string) => void }; locale: Locale },
): Promise<{ exitCode: ExitCode }> {
  const profile = await loadReceivablesProfile(name, dirs);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new SettleError('ERR_INTAKE_FILE_UNREADABLE', `${file} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const result = readReceivables(bytes, profile);
  const valid = result.problems.length === 0;
  if (output.json)
    output.io.out(
      JSON.stringify(
        {
          file,
          kind: 'receivables',
          format: `csv:${profile.name}`,
          receivables: result.receivables.length,
          // As always: the English message; the catalogue's sentence is for the human output.
          problems: result.problems.map(({ words: _words, ...problem }) => problem),
          valid,
        },
        null,
        2,
      ) + '\n',
    );
  else
    output.io.out(
      valid
        ? `${translate(output.locale, 'receivables.valid', { file, count: String(result.receivables.length), profile: profile.name })}\n`
        : receivableProblemsText(file, result.problems, output.locale),
    );
  return { exitCode: valid ? ExitCode.ok : ExitCode.needsPerson };
}
