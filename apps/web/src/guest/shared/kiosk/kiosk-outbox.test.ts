import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, INTERNAL_ERROR } from '../../../lib/api-client.ts';
import {
  isTransientFailure,
  KioskOutbox,
  outboxStorageKey,
  type ActionRunner,
  type StoredAction,
} from './kiosk-outbox.ts';

afterEach(() => {
  vi.useRealTimers();
  window.localStorage.clear();
});

const offline = () => new ApiError(INTERNAL_ERROR);

describe('kiosk outbox (actions wait and retry while offline, in order)', () => {
  it('tells the network’s failures from the server’s answers', () => {
    expect(isTransientFailure(new TypeError('Failed to fetch'))).toBe('network');
    expect(isTransientFailure(offline())).toBe('network');
    expect(isTransientFailure(new ApiError(INTERNAL_ERROR, { status: 503 }))).toBe('network');
    expect(isTransientFailure(new ApiError(INTERNAL_ERROR, { status: 500 }))).toBe('server');
    expect(isTransientFailure(new ApiError('not_found', { status: 404 }))).toBe(false);
    expect(isTransientFailure(new ApiError('unsupported_picture_format'))).toBe(false);
    expect(isTransientFailure(new Error('boom'))).toBe(false);
  });

  it('runs actions one at a time in order; a network failure holds the line until it goes through', async () => {
    vi.useFakeTimers();
    const outbox = new KioskOutbox(2000);
    const calls: string[] = [];
    let network = false;
    const action = (name: string) => () => {
      calls.push(name);
      return network ? Promise.resolve(name) : Promise.reject(offline());
    };
    const first = outbox.enqueue('first', action('first'));
    const second = outbox.enqueue('second', action('second'));
    await vi.advanceTimersByTimeAsync(0);
    expect(outbox.getState()).toEqual({ pending: 2, waiting: true });
    await vi.advanceTimersByTimeAsync(4000);
    // Only the first action is tried while the network is down; the second never overtakes it.
    expect(calls).toEqual(['first', 'first', 'first']);
    let drained = false;
    void outbox.drained().then(() => (drained = true));
    network = true;
    outbox.retryNow();
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
    expect(calls).toEqual(['first', 'first', 'first', 'first', 'second']);
    await vi.advanceTimersByTimeAsync(0);
    expect(drained).toBe(true);
    expect(outbox.getState()).toEqual({ pending: 0, waiting: false });
  });

  it('passes the server’s refusal to the action and goes on with the next; retries at `online`', async () => {
    vi.useFakeTimers();
    const outbox = new KioskOutbox(60_000);
    const refused = outbox.enqueue('refused', () =>
      Promise.reject(new ApiError('kiosk_photo_delete_off', { status: 403 })),
    );
    let tries = 0;
    const later = outbox.enqueue('later', () =>
      ++tries === 1 ? Promise.reject(offline()) : Promise.resolve('sent'),
    );
    await expect(refused).rejects.toMatchObject({ messageKey: 'kiosk_photo_delete_off' });
    await vi.advanceTimersByTimeAsync(0);
    expect(outbox.labels()).toEqual(['later']);
    window.dispatchEvent(new Event('online'));
    await expect(later).resolves.toBe('sent');
    expect(tries).toBe(2);
  });

  it('gives up on an action the server keeps failing (5xx) after a few tries', async () => {
    vi.useFakeTimers();
    const outbox = new KioskOutbox(10);
    const run = vi.fn(() => Promise.reject(new ApiError(INTERNAL_ERROR, { status: 500 })));
    const failing = outbox.enqueue('failing', run);
    const assertion = expect(failing).rejects.toBeInstanceOf(ApiError);
    await vi.advanceTimersByTimeAsync(100);
    await assertion;
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('keeps waiting actions across a reload; the next page sends each once under the same id', async () => {
    vi.useFakeTimers();
    const key = outboxStorageKey('kiosk-key');
    // The server: prints by client request id, a repeated id answers the first print.
    const printed = new Map<string, number>();
    let network = false;
    let loseAnswer = false;
    const seen: { id: string; retried: boolean }[] = [];
    const print: ActionRunner = (payload: never, context) => {
      seen.push(context);
      if (!network) return Promise.reject(offline());
      const { photo } = payload as { photo: string };
      if (!printed.has(context.id)) printed.set(context.id, printed.size + 1);
      // The print is made but the answer never comes (the page goes before it does).
      if (loseAnswer) return new Promise(() => undefined);
      return Promise.resolve({ photo, request: printed.get(context.id) });
    };
    const page = () => new KioskOutbox(2000, { storageKey: key, runners: { print } });

    const first = page();
    void first.enqueueStored('print', { photo: 'red' }).catch(() => undefined);
    void first.enqueueStored('print', { photo: 'green' }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    const stored = JSON.parse(window.localStorage.getItem(key) ?? '[]') as StoredAction[];
    expect(stored.map((a) => [a.kind, a.payload])).toEqual([
      ['print', { photo: 'red' }],
      ['print', { photo: 'green' }],
    ]);
    // The first one reaches the server, its answer is lost, and the kiosk reloads.
    network = true;
    loseAnswer = true;
    first.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(printed.size).toBe(1);
    first.stop();

    loseAnswer = false;
    const second = page();
    const replayed: (string | null)[] = [];
    second.onReplayed((kind, error) => replayed.push(error === null ? kind : 'failed'));
    expect(second.restore()).toBe(2);
    expect(second.restore()).toBe(0);
    await second.drained();
    await vi.advanceTimersByTimeAsync(0);
    expect(replayed).toEqual(['print', 'print']);
    // Each action printed once: the replay of the first carried its id and was told it is a retry.
    expect([...printed.keys()]).toEqual(stored.map((a) => a.id));
    expect(seen.filter((c) => c.id === stored[0]!.id).at(-1)?.retried).toBe(true);
    expect(window.localStorage.getItem(key)).toBeNull();
    // Nothing is left for a third page.
    expect(page().restore()).toBe(0);
  });

  it('drops a stored action the server refuses; other kiosks’ lists are not touched', async () => {
    const key = outboxStorageKey('k1');
    window.localStorage.setItem(
      outboxStorageKey('k2'),
      '[{"id":"x","kind":"print","payload":{},"tries":0}]',
    );
    const refuse: ActionRunner = () =>
      Promise.reject(new ApiError('printing_not_active', { status: 400 }));
    const outbox = new KioskOutbox(10, { storageKey: key, runners: { print: refuse } });
    await expect(outbox.enqueueStored('print', {})).rejects.toMatchObject({
      messageKey: 'printing_not_active',
    });
    expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem(outboxStorageKey('k2'))).not.toBeNull();
  });
});
