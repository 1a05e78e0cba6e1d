/**
 * The benchmarks' robot, in its own process (as a booth's robot is its own machine): reads photo
 * files and sends each through the robot path — upload grant → storage POST → completion — two at
 * a time. Its copying and garbage (5 MiB request bodies) stay out of the server's event loop, so
 * the server's figures are the server's.
 *
 * Messages from the parent: `{ type: 'send', files, tag }` → `{ type: 'sent', ids }`;
 * `{ type: 'flood', files }` sends rounds of the files (each round's bytes made unique) until
 * `{ type: 'stop' }` → `{ type: 'stopped', sent }`.
 */
import { readFile } from 'node:fs/promises';
import { robotUpload } from './bench-app.ts';

type Message =
  | { type: 'send'; files: string[]; tag: string }
  | { type: 'flood'; files: string[] }
  | { type: 'stop' };

const [base, robotKey, eventName] = process.argv.slice(2) as [string, string, string];

const sendOne = async (bytes: Buffer, name: string): Promise<number> =>
  (await robotUpload({ base, robotKey, eventName }, bytes, name)).id;

/** Sends every photo, two at a time; answers the photo ids. */
const sendAll = async (photos: { bytes: Buffer; name: string }[]): Promise<number[]> => {
  const queue = [...photos];
  const ids: number[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      for (let item = queue.shift(); item; item = queue.shift())
        ids.push(await sendOne(item.bytes, item.name));
    }),
  );
  return ids;
};

let flooding = false;
let flood: Promise<number> = Promise.resolve(0);

process.on('message', (message: Message) => {
  void (async () => {
    if (message.type === 'send') {
      const photos = await Promise.all(
        message.files.map(async (file, i) => ({
          bytes: await readFile(file),
          name: `${message.tag}_${i}.jpg`,
        })),
      );
      process.send!({ type: 'sent', ids: await sendAll(photos) });
    } else if (message.type === 'flood') {
      const files = await Promise.all(message.files.map((file) => readFile(file)));
      flooding = true;
      flood = (async () => {
        let sent = 0;
        for (let round = 1; flooding; round += 1) {
          const tail = Buffer.from([round & 255, round >> 8]);
          const photos = files.map((bytes, i) => ({
            bytes: Buffer.concat([bytes, tail]),
            name: `flood${round}_${i}.jpg`,
          }));
          sent += (await sendAll(photos)).length;
        }
        return sent;
      })();
    } else {
      flooding = false;
      process.send!({ type: 'stopped', sent: await flood });
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
