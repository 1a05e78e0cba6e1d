import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { resolveSecret } from '../src/container/core.ts';

describe('secret.key is checked when read back', () => {
  const configFor = (dataDir: string) =>
    loadConfig({ FLASHBULB_DATA_DIR: dataDir, FLASHBULB_SECRET_KEY: '' });

  it('a secret.key shorter than 32 bytes refuses to start with a clear error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-secret-'));
    try {
      await writeFile(path.join(dir, 'secret.key'), 'short-key\n');
      await expect(resolveSecret(configFor(dir))).rejects.toThrow(
        /secret\.key.*9 bytes.*at least 32/,
      );
      await writeFile(path.join(dir, 'secret.key'), '');
      await expect(resolveSecret(configFor(dir))).rejects.toThrow(/at least 32/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a generated secret.key is long enough and read back as written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-secret-'));
    try {
      const first = await resolveSecret(configFor(dir));
      expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
      expect(await resolveSecret(configFor(dir))).toBe(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
