import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, INTERNAL_ERROR } from '../../../lib/api-client.ts';
import { isTransientFailure, KioskOutbox } from './kiosk-outbox.ts';

afterEach(() => {
  vi.useRealTimers();
});

const offline = () => new ApiError(INTERNAL_ERROR);

describe('kiosk outbox (issue 14: actions wait and retry while offline, in order)', () => {
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
});
