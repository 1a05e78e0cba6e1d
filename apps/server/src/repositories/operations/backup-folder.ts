import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { assertValidKey } from '../../storage/storage.repository.ts';

/**
 * A backup on disk (ADR 0011): one folder, written under `<name>.partial` and renamed when its
 * manifest is in (a folder without `.partial` is complete).
 *
 *   manifest.json    format, version, created_at, engine, schema version, files with SHA-256
 *   database.ndjson  the rows (db/logical-backup.ts)
 *   objects.ndjson   one line per stored object: key, size, sha256, content type, cache control
 *   objects/<key>    the objects' bytes
 *   secret.key       the data folder's secret key, when the server made one (not from the env)
 */

export const BACKUP_FORMAT = 'flashbulb-backup';
export const BACKUP_VERSION = 1;

const fileEntry = z.object({
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  created_at: z.string(),
  duration_ms: z.number().int().nonnegative(),
  engine: z.enum(['pglite', 'postgres']),
  storage: z.enum(['local', 's3']),
  schema: z.object({
    migrations: z.number().int().nonnegative(),
    last_created_at: z.number().int().nullable(),
  }),
  database: fileEntry.extend({
    tables: z.record(z.string(), z.number().int().nonnegative()),
    sequences: z.array(z.object({ name: z.string(), last_value: z.string().nullable() })),
  }),
  objects: fileEntry.extend({
    count: z.number().int().nonnegative(),
    object_bytes: z.number().int().nonnegative(),
    /** Listed, but gone before they could be copied (deleted while the backup ran). */
    vanished: z.array(z.string()),
  }),
  /** The data folder's secret key file, or (secret from the environment) its fingerprint only. */
  secret: z.union([fileEntry, z.object({ fingerprint: z.string() })]),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export const objectEntrySchema = z.object({
  key: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  content_type: z.string(),
  cache_control: z.string(),
  /** The object's version in a versioned S3 bucket when it was backed up (restored by it). */
  version_id: z.string().optional(),
});
export type BackupObjectEntry = z.infer<typeof objectEntrySchema>;

const DATABASE_FILE = 'database.ndjson';
const OBJECTS_FILE = 'objects.ndjson';
const SECRET_FILE = 'secret.key';
const MANIFEST_FILE = 'manifest.json';
const OBJECTS_DIR = 'objects';

/** A stream that hashes and counts what passes through it. */
const hashing = () => {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ sha256: hash.digest('hex'), bytes }) };
};

/** Hashes a file as it streams by (never read whole). */
const hashFile = async (file: string): Promise<{ sha256: string; bytes: number }> => {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
};

/** A text file written line by line with back-pressure, hashed as it goes. */
class HashedTextFile {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly out: WriteStream;
  constructor(file: string) {
    this.out = createWriteStream(file, { mode: 0o600, flush: true });
  }
  async write(text: string): Promise<void> {
    const buffer = Buffer.from(text, 'utf8');
    this.hash.update(buffer);
    this.bytes += buffer.length;
    if (!this.out.write(buffer))
      await new Promise<void>((resolve, reject) => {
        this.out.once('drain', resolve);
        this.out.once('error', reject);
      });
  }
  async finish(): Promise<{ sha256: string; bytes: number }> {
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(resolve);
    });
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }
}

const objectPath = (root: string, key: string): string => {
  assertValidKey(key);
  return path.join(root, OBJECTS_DIR, ...key.split('/'));
};

/** Writes one backup folder. `commit` makes it complete; `abort` removes what was written. */
export class BackupWriter {
  readonly database: HashedTextFile;
  readonly objectList: HashedTextFile;
  private constructor(
    readonly partial: string,
    readonly final: string,
  ) {
    this.database = new HashedTextFile(path.join(partial, DATABASE_FILE));
    this.objectList = new HashedTextFile(path.join(partial, OBJECTS_FILE));
  }

  /**
   * A new folder `flashbulb-backup-<stamp>` in `parent` (made 0700 when missing); a second backup
   * in the same second (or beside a crashed one's `.partial`) gets `-2`, `-3` … after the stamp.
   */
  static async create(parent: string, stamp: string): Promise<BackupWriter> {
    await mkdir(parent, { recursive: true, mode: 0o700 });
    for (let n = 1; ; n += 1) {
      const name = `${BACKUP_FORMAT}-${stamp}${n === 1 ? '' : `-${n}`}`;
      const final = path.join(path.resolve(parent), name);
      const partial = `${final}.partial`;
      if (
        await stat(final).then(
          () => true,
          () => false,
        )
      )
        continue;
      try {
        await mkdir(partial, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      return new BackupWriter(partial, final);
    }
  }

  /** Streams one object into the folder; answers its size and SHA-256. */
  async writeObject(key: string, body: Readable): Promise<{ sha256: string; bytes: number }> {
    const file = objectPath(this.partial, key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const counter = hashing();
    await pipeline(body, counter.stream, createWriteStream(file, { mode: 0o600, flush: true }));
    return counter.result();
  }

  async writeSecret(secret: string): Promise<{ file: string; sha256: string; bytes: number }> {
    await writeFile(path.join(this.partial, SECRET_FILE), `${secret}\n`, { mode: 0o600 });
    return { file: SECRET_FILE, ...(await hashFile(path.join(this.partial, SECRET_FILE))) };
  }

  async commit(manifest: BackupManifest): Promise<{ path: string; bytes: number }> {
    await writeFile(
      path.join(this.partial, MANIFEST_FILE),
      `${JSON.stringify(manifest, null, 2)}\n`,
      { mode: 0o600 },
    );
    await rename(this.partial, this.final);
    return { path: this.final, bytes: await folderBytes(this.final) };
  }

  async abort(): Promise<void> {
    await this.database.finish().catch(() => undefined);
    await this.objectList.finish().catch(() => undefined);
    await rm(this.partial, { recursive: true, force: true });
  }
}

export const DATABASE_FILE_NAME = DATABASE_FILE;
export const OBJECTS_FILE_NAME = OBJECTS_FILE;

const folderBytes = async (folder: string): Promise<number> => {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
};

/** What verification found wrong, by name: a file of the folder or an object's key. */
export interface BackupProblem {
  name: string;
  problem: 'missing' | 'checksum_mismatch' | 'unreadable';
}

const lines = async function* (file: string): AsyncGenerator<string> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of reader) yield line;
};

/** Reads one backup folder. */
export class BackupReader {
  private constructor(
    readonly folder: string,
    readonly manifest: BackupManifest,
  ) {}

  /** Null when the folder has no readable manifest of this format. */
  static async open(folder: string): Promise<BackupReader | null> {
    const text = await readFile(path.join(folder, MANIFEST_FILE), 'utf8').catch(() => null);
    if (text === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return null;
    }
    const parsed = manifestSchema.safeParse(json);
    return parsed.success ? new BackupReader(path.resolve(folder), parsed.data) : null;
  }

  /** Checks every file and every object against its recorded SHA-256; answers what is wrong. */
  async verify(): Promise<BackupProblem[]> {
    const problems: BackupProblem[] = [];
    const check = async (name: string, file: string, sha256: string, bytes: number) => {
      const found = await hashFile(file).catch((error: unknown) =>
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable',
      );
      if (typeof found === 'string') problems.push({ name, problem: found });
      else if (found.sha256 !== sha256 || found.bytes !== bytes)
        problems.push({ name, problem: 'checksum_mismatch' });
    };
    const { database, objects, secret } = this.manifest;
    await check(
      database.file,
      path.join(this.folder, database.file),
      database.sha256,
      database.bytes,
    );
    await check(objects.file, path.join(this.folder, objects.file), objects.sha256, objects.bytes);
    if ('file' in secret)
      await check(secret.file, path.join(this.folder, secret.file), secret.sha256, secret.bytes);
    // The object list is read only once its own checksum holds.
    if (problems.some((p) => p.name === objects.file)) return problems;
    let count = 0;
    for await (const entry of this.objects()) {
      count += 1;
      await check(entry.key, objectPath(this.folder, entry.key), entry.sha256, entry.size);
    }
    if (count !== objects.count)
      problems.push({ name: objects.file, problem: 'checksum_mismatch' });
    return problems;
  }

  databaseLines(): AsyncIterable<string> {
    return lines(path.join(this.folder, this.manifest.database.file));
  }

  async *objects(): AsyncGenerator<BackupObjectEntry> {
    for await (const line of lines(path.join(this.folder, this.manifest.objects.file))) {
      if (line) yield objectEntrySchema.parse(JSON.parse(line));
    }
  }

  openObject(key: string): Readable {
    return createReadStream(objectPath(this.folder, key));
  }

  async readSecret(): Promise<string | null> {
    const { secret } = this.manifest;
    if (!('file' in secret)) return null;
    return (await readFile(path.join(this.folder, secret.file), 'utf8')).trim();
  }
}

/** The backups in a folder, newest first (by name: the stamp sorts), complete ones only. */
export const listBackups = async (parent: string): Promise<string[]> => {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  return entries
    .filter(
      (e) =>
        e.isDirectory() && e.name.startsWith(`${BACKUP_FORMAT}-`) && !e.name.endsWith('.partial'),
    )
    .map((e) => path.join(path.resolve(parent), e.name))
    .sort()
    .reverse();
};

export const removeBackup = (folder: string): Promise<void> =>
  rm(folder, { recursive: true, force: true });

/** The data folder's secret key file, or null when there is none yet. */
export const readSecretFile = async (file: string): Promise<string | null> =>
  (await readFile(file, 'utf8').catch(() => null))?.trim() ?? null;

/** Writes the secret key file (0600) whole: under a temporary name, then renamed into place. */
export const writeSecretFile = async (file: string, secret: string): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.restoring`;
  await writeFile(temp, secret, { mode: 0o600 });
  await rename(temp, file);
};
