import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ImageThreadPriority } from '../../src/lib/thread-priority.ts';
import { ImageEngine } from '../../src/repositories/photos/image-engine.ts';
import { makeJpeg } from '../helpers/photos.ts';

/** The nice value of each of this process's threads whose name matches. */
const threads = (name: RegExp) =>
  readdirSync('/proc/self/task')
    .filter((tid) => name.test(readFileSync(`/proc/self/task/${tid}/comm`, 'utf8')))
    .map((tid) => getPriority(Number(tid)));

// Linux only: elsewhere the priority is left alone (and there is no /proc to read it from).
describe.runIf(existsSync('/proc/self/task'))('image work below the event loop', () => {
  it('runs libvips threads at the configured nice value and leaves the event loop as it is', async () => {
    const main = getPriority(0);
    const engine = new ImageEngine(new ImageThreadPriority(10, 0));
    const jpeg = await makeJpeg({ seed: 5 });
    // The first call starts libvips's threads; the next ones find them.
    await Promise.all([engine.thumbnail(jpeg), engine.thumbnail(jpeg), engine.thumbnail(jpeg)]);
    await engine.thumbnail(jpeg);
    const vips = threads(/^libvips/);
    expect(vips.length).toBeGreaterThan(0);
    for (const nice of vips) expect(nice).toBeGreaterThanOrEqual(10);
    expect(getPriority(0)).toBe(main);
  });
});
