import { describe, expect, it } from 'vitest';
import { SignalBus } from '../../src/signals/signal-bus.ts';

const recordingLogger = () => {
  const errors: { obj: Record<string, unknown>; msg: string }[] = [];
  return { errors, error: (obj: object, msg: string) => errors.push({ obj: obj as never, msg }) };
};

describe('signal bus', () => {
  it('hands the payload to every listener of the signal, in registration order, and no other', async () => {
    const bus = new SignalBus(recordingLogger());
    const calls: string[] = [];
    bus.on('photo.ready', 'first', (p) => {
      calls.push(`first ${p.photoId}/${p.eventId}`);
    });
    bus.on('photo.ready', 'second', async (p) => {
      await new Promise((r) => setTimeout(r, 5));
      calls.push(`second ${p.photoId}`);
    });
    bus.on('photo.hidden', 'other event', () => {
      calls.push('hidden');
    });
    await bus.emit('photo.ready', { photoId: 7, eventId: 3 });
    expect(calls).toEqual(['first 7/3', 'second 7']);
    expect(bus.listenersOf('photo.ready')).toEqual(['first', 'second']);
  });

  it('logs a failing listener with its name and runs the others; emit never throws', async () => {
    const logger = recordingLogger();
    const bus = new SignalBus(logger);
    const calls: string[] = [];
    bus.on('photo.deleted', 'throws', () => {
      throw new Error('boom');
    });
    bus.on('photo.deleted', 'rejects', () => Promise.reject(new Error('later boom')));
    bus.on('photo.deleted', 'works', (p) => {
      calls.push(p.uid);
    });
    await expect(
      bus.emit('photo.deleted', {
        photoId: 1,
        eventId: 2,
        uid: 'abc',
        storageKey: 'events/ABCD/photos/uid_abc_uid/original.jpg',
        reason: 'owner',
      }),
    ).resolves.toBeUndefined();
    expect(calls).toEqual(['abc']);
    expect(logger.errors.map((e) => [e.msg, e.obj.event, e.obj.listener])).toEqual([
      ['domain event listener failed', 'photo.deleted', 'throws'],
      ['domain event listener failed', 'photo.deleted', 'rejects'],
    ]);
    expect((logger.errors[0]!.obj.err as Error).message).toBe('boom');
  });

  it('stops calling a listener once it is removed', async () => {
    const bus = new SignalBus(recordingLogger());
    let count = 0;
    const off = bus.on('photo.shown', 'counter', () => {
      count += 1;
    });
    await bus.emit('photo.shown', { photoId: 1, eventId: 1 });
    off();
    await bus.emit('photo.shown', { photoId: 1, eventId: 1 });
    expect(count).toBe(1);
    expect(bus.listenersOf('photo.shown')).toEqual([]);
  });

  it('is typed: event names and payloads are checked at compile time', async () => {
    const bus = new SignalBus(recordingLogger());
    // @ts-expect-error an event that does not exist
    await bus.emit('photo.exploded', { photoId: 1 });
    // @ts-expect-error a payload missing eventId
    await bus.emit('photo.ready', { photoId: 1 });
    // @ts-expect-error a payload of the wrong type
    bus.on('photo.ready', 'typed', (p: { outboxId: number }) => p);
    bus.on('payment.confirmed', 'typed', (p) => {
      const paymentId: number = p.paymentId;
      return void paymentId;
    });
    expect(bus.listenersOf('payment.confirmed')).toEqual(['typed']);
  });
});
