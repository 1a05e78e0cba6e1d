import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { HEALTH_PATH } from '@flashbulb/shared';
import { cliInThisProcess } from './cli.ts';
import { repoRoot, webDist } from './paths.ts';

export interface RunningServer {
  readonly url: string;
  readonly dataDir: string;
  /** Everything the server printed so far, for failure messages. */
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

/** A port the OS says is free right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

/** The test's environment without the server's own settings, so nothing leaks into the journey. */
const inheritedEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('FLASHBULB_') || key.startsWith('VITEST')) continue;
    if (['DATABASE_URL', 'SMTP_URL', 'PORT', 'HOST', 'NODE_ENV', 'LOG_LEVEL'].includes(key))
      continue;
    env[key] = value;
  }
  return env;
};

const execFileAsync = promisify(execFile);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

export interface StartOptions {
  /** Server environment on top of the defaults (port, data dir, web dist). */
  readonly env?: Record<string, string>;
  /**
   * Runs before the server starts, with the server's CLI (`npm run cli -- …`) bound to the same
   * data directory: the embedded database admits one process at a time.
   */
  readonly prepare?: (cli: (...args: string[]) => Promise<string>) => Promise<void>;
  /**
   * A data directory shared with other processes (several API processes and a worker on one
   * PostgreSQL database keep their stored objects there); the caller deletes it. Default: a new one
   * per server, holding a copy of the run's embedded database, deleted on stop.
   */
  readonly dataDir?: string;
}

/**
 * Start the real server (`node --import tsx apps/server/src/main.ts`) on a free port with its own
 * data directory (embedded database, storage), serving the built web app; resolve once
 * `GET /api/health` answers 200.
 */
export const startServer = async ({
  env = {},
  prepare,
  dataDir: sharedDataDir,
}: StartOptions = {}): Promise<RunningServer> => {
  const dataDir = sharedDataDir ?? (await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-data-')));
  const removeDataDir = () =>
    sharedDataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true });
  // A copy of the run's migrated database (e2e/global-setup.ts), when there is one.
  const seed = process.env.FLASHBULB_E2E_SEED_DIR;
  if (seed && !sharedDataDir)
    await cp(path.join(seed, 'db'), path.join(dataDir, 'db'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const serverEnv = {
    ...inheritedEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_WEB_DIST: webDist,
    FLASHBULB_PUBLIC_URL: url,
    // The journeys (and the screenshots) sell through the built-in test provider, which a default
    // install leaves off; the console shows its banner.
    FLASHBULB_PAYMENTS_PROVIDER: 'test',
    LOG_LEVEL: 'warn',
    ...env,
  };
  // The server runs in this process unless the journey shares a data directory with other
  // processes (several API processes and a worker behind a proxy) or FLASHBULB_E2E_SERVER says
  // `process`; the CLI of `prepare` runs where the server does.
  const inProcess = !sharedDataDir && process.env.FLASHBULB_E2E_SERVER !== 'process';
  if (prepare) {
    try {
      await prepare(async (...args) => {
        if (inProcess) return cliInThisProcess(args, serverEnv);
        const { stdout } = await execFileAsync(
          process.execPath,
          ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
          { cwd: repoRoot, env: serverEnv },
        );
        return stdout;
      });
    } catch (error) {
      await removeDataDir();
      throw error;
    }
  }
  // One process for the test and its server (see `inProcess`): the same start as `npm start`
  // (apps/server/src/serve.ts) without a second Node: a spawned server spent ≈ 8 s of CPU
  // loading its modules through tsx before it answered.
  if (inProcess) return startInProcess(serverEnv, url, dataDir, removeDataDir);
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
    await removeDataDir();
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`,
      );
    }
    try {
      const response = await fetch(`${url}${HEALTH_PATH}`);
      if (response.status === 200) return { url, dataDir, output: () => output, stop };
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`server did not become healthy within 90 s:\n${output}`);
};

/**
 * The server in the test's own process: `serve()` on the config `loadConfig` reads from the same
 * environment a spawned server would get; its log lines are kept for failure messages.
 */
const startInProcess = async (
  serverEnv: Record<string, string>,
  url: string,
  dataDir: string,
  removeDataDir: () => Promise<void>,
): Promise<RunningServer> => {
  const [{ loadConfig }, { serve }] = await Promise.all([
    import('../../apps/server/src/config.ts'),
    import('../../apps/server/src/serve.ts'),
  ]);
  let output = '';
  const logStream = { write: (line: string) => void (output += line) };
  let app: Awaited<ReturnType<typeof serve>>;
  try {
    app = await serve(loadConfig(serverEnv), { logStream });
  } catch (error) {
    await removeDataDir();
    if (error instanceof Error) error.message += `\n${output}`;
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= app
      .close()
      .catch((error: unknown) => void (output += `close failed: ${String(error)}\n`))
      .then(removeDataDir));
  return { url, dataDir, output: () => output, stop };
};
