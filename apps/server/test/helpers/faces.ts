import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The shared face photos (../shared/testdata/faces beside the checkout, as in CI). */
export const FACES_DIR = [
  process.env.FLASHBULB_FACES_TESTDATA,
  path.resolve(repoRoot, '../shared/testdata/faces'),
].find((dir): dir is string => !!dir && existsSync(path.join(dir, 'people')));

/** The bytes of a shared face photo, e.g. `people/raj/raj1.png` or `groups/bbt1.jpg`. */
export const facePhoto = (relative: string): Buffer => {
  if (!FACES_DIR) throw new Error('testdata/faces not found beside the checkout (../shared)');
  return readFileSync(path.join(FACES_DIR, relative));
};
