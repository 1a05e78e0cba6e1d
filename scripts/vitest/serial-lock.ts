// A bounded number of browser journeys at a time (docs/testing.md, "The schedule";
// scripts/vitest/journeys.ts says how many). Beside the other projects it is one: the journeys
// share the run's two workers with the server and web files; the sequencer (sequencer.ts) places
// each journey in the queue for when the previous one should have ended, and this lock makes it
// so when the estimate is wrong: a journey that starts early waits for the one before it. After
// the other projects it is as many as the e2e project has workers, and it holds the first turns
// until the journeys' web build and seed are made.
//
// A small TCP server in Vitest's main process (the project's global set-up) hands a turn to each
// of the first `turns` connections, in the order they came. A test file holds its connection
// from its first hook to its last; a worker that dies closes it, so a crash never keeps a turn.
import { createConnection, createServer, type Socket } from 'node:net';
import type {} from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The turn lock's `host:port` (project e2e). */
    serialLock: string;
  }
}

const GRANTED = 'go\n';
const REFUSED = 'refused:';

export interface LockServer {
  /** `host:port` for `acquireTurn`. */
  readonly address: string;
  close(): Promise<void>;
}

/**
 * @param ready what the files need before the first turn (the journeys' web build and seed,
 *   made while the other projects start): no turn is given before it; if it fails, every file
 *   that asks is told why instead.
 * @param turns how many files hold a turn at once.
 */
export async function startLockServer(
  ready: Promise<unknown> = Promise.resolve(),
  turns = 1,
): Promise<LockServer> {
  const waiting: Socket[] = [];
  const granted = new Set<Socket>();
  let state: { failed: string } | 'ready' | 'preparing' = 'preparing';
  const grantHead = (): void => {
    if (state !== 'ready') return;
    for (const socket of waiting.slice(0, turns)) {
      if (granted.has(socket)) continue;
      granted.add(socket);
      socket.write(GRANTED);
    }
  };
  const refuse = (socket: Socket): void => {
    if (typeof state === 'object') socket.end(`${REFUSED}${state.failed.replace(/\n/g, ' ')}\n`);
  };
  ready.then(
    () => {
      state = 'ready';
      grantHead();
    },
    (error: unknown) => {
      state = { failed: error instanceof Error ? error.message : String(error) };
      for (const socket of waiting) refuse(socket);
    },
  );
  const server = createServer((socket) => {
    // A worker that dies resets its connection: the turn passes on, nothing is thrown.
    socket.on('error', () => socket.destroy());
    if (typeof state === 'object') return refuse(socket);
    waiting.push(socket);
    grantHead();
    socket.on('close', () => {
      const index = waiting.indexOf(socket);
      granted.delete(socket);
      if (index === -1) return;
      waiting.splice(index, 1);
      grantHead();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const bound = server.address();
  if (bound === null || typeof bound === 'string') throw new Error('the lock server has no port');
  return {
    address: `127.0.0.1:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of waiting.splice(0)) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Waits for the turn; the answer gives it back. */
export function acquireTurn(address: string): Promise<() => void> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port: Number(port) });
    let received = '';
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('utf8');
      if (received.startsWith(REFUSED) && received.endsWith('\n')) {
        socket.destroy();
        reject(new Error(received.slice(REFUSED.length).trim()));
        return;
      }
      if (!received.includes(GRANTED)) return;
      socket.off('data', onData);
      socket.off('error', reject);
      // Errors after the turn was given (the run is ending) have nothing left to stop.
      socket.on('error', () => socket.destroy());
      resolve(() => socket.end());
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}
