/** A server-sent-events client over fetch: reads the body stream as a browser's EventSource would. */
export interface SseMessage {
  event: string;
  data: string;
  id: string | null;
  /** Date.now() when the message was complete. */
  at: number;
}

export interface SseClient {
  status: number;
  contentType: string | null;
  messages: SseMessage[];
  /** Everything received, comments included. */
  raw: () => string;
  ended: () => boolean;
  waitFor(predicate: (m: SseMessage) => boolean, timeoutMs: number): Promise<SseMessage>;
  waitForEnd(timeoutMs: number): Promise<void>;
  close(): void;
}

const until = async (check: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

export const openSse = async (url: string): Promise<SseClient> => {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: { accept: 'text/event-stream' },
  });
  const messages: SseMessage[] = [];
  let all = '';
  let buffer = '';
  let ended = false;
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const text = decoder.decode(value, { stream: true });
          all += text;
          buffer += text;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            let id: string | null = null;
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
              else if (line.startsWith('id: ')) id = line.slice(4);
            }
            if (data.length) messages.push({ event, data: data.join('\n'), id, at: Date.now() });
          }
        }
      } catch {
        // aborted or reset
      }
      ended = true;
    })();
  } else {
    ended = true;
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    messages,
    raw: () => all,
    ended: () => ended,
    async waitFor(predicate, timeoutMs) {
      await until(() => messages.some(predicate), timeoutMs, 'a matching event');
      return messages.find(predicate)!;
    },
    waitForEnd: (timeoutMs) => until(() => ended, timeoutMs, 'the stream to end'),
    close: () => controller.abort(),
  };
};
