// The server's live streams (Server-Sent Events) at the browser's boundary: `EventSource`
// replaced, each stream the page opens recorded, the server's side played by the test.
import { vi } from 'vitest';
import { act } from '@testing-library/react';

/** A stream the page opened: its address, the target its messages arrive on, whether it closed. */
export interface FakeStream {
  readonly url: string;
  readonly target: EventTarget;
  closed: () => boolean;
}

/**
 * Replaces `EventSource` for the test (undone by `vi.unstubAllGlobals`) and answers the streams
 * the page opens, in order. A stream reports itself open at once (`readyState` 1).
 */
export const fakeEventSources = (): FakeStream[] => {
  const sources: FakeStream[] = [];
  class FakeEventSource extends EventTarget {
    static readonly OPEN = 1;
    readyState = 1;
    constructor(readonly url: string) {
      super();
      sources.push({ url, target: this, closed: () => this.readyState === 2 });
    }
    close() {
      this.readyState = 2;
    }
  }
  vi.stubGlobal('EventSource', FakeEventSource);
  return sources;
};

/** The server's side of a photo stream: it opens, then `photo` arrives in a `photo` message. */
export const pushPhoto = (stream: FakeStream | undefined, photo: unknown) =>
  act(() => {
    stream?.target.dispatchEvent(new Event('open'));
    stream?.target.dispatchEvent(new MessageEvent('photo', { data: JSON.stringify(photo) }));
  });
