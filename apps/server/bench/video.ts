/**
 * `npm run bench:video [-- --seconds 60 --engine pglite|postgres]`: the video engine on this
 * machine.
 *
 * 1. Seconds of processing per minute of 1080p: the engine's web rendition of a 1080p clip (with
 *    sound) against a bare ffmpeg command with exactly the same arguments (`renditionArgs`), in
 *    the same run, one after the other. Target: the engine at ≥ 0.8× the bare command's speed.
 * 2. Upload to playable: a 15 s 1080p clip through the robot path (grant → storage POST →
 *    completion) until the owner list shows it ready with its `urls.video`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import { renditionArgs, VideoEngine } from '../src/repositories/photos/video-engine.ts';
import { post, schedulingNote, setUp } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    engine: { type: 'string', default: 'pglite' },
  },
});
const clipSeconds = Number(values.seconds);
const engineName = values.engine === 'postgres' ? 'postgres' : 'pglite';

const tools = VideoEngine.resolveTools({
  ffmpegPath: process.env.FLASHBULB_FFMPEG_PATH,
  ffprobePath: process.env.FLASHBULB_FFPROBE_PATH,
});
const engine = new VideoEngine(tools);

const run = (command: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });

const timed = async (body: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await body();
  return (performance.now() - start) / 1000;
};

const main = async () => {
  console.log(
    `bench:video ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · ${await schedulingNote()}`,
  );
  // 1. The rendition against a bare ffmpeg with the same settings.
  const clip = await engine.synthesize({
    seconds: clipSeconds,
    width: 1920,
    height: 1080,
    format: 'mp4',
    audio: true,
  });
  const info = { width: 1920, height: 1080, audioCodec: 'aac' };
  const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-video-'));
  try {
    const input = path.join(dir, 'in.mp4');
    await writeFile(input, clip);
    const bare = await timed(() =>
      run(tools.ffmpeg, renditionArgs(input, path.join(dir, 'bare.mp4'), { info })),
    );
    const ours = await timed(() =>
      engine.withInput(clip, (file) => engine.rendition(file, 'bench', { info })),
    );
    const perMinute = (s: number) => (s * 60) / clipSeconds;
    console.log(
      `rendition of ${clipSeconds} s of 1080p: engine ${ours.toFixed(1)} s (${perMinute(ours).toFixed(1)} s per minute), bare ffmpeg ${bare.toFixed(1)} s (${perMinute(bare).toFixed(1)} s per minute), engine speed ${(bare / ours).toFixed(2)}× the bare command's`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // 2. Upload to playable for a 15 s clip.
  const setup = await setUp(engineName);
  try {
    const fifteen = await engine.synthesize({
      seconds: 15,
      width: 1920,
      height: 1080,
      format: 'mp4',
      audio: true,
    });
    const key = { key_type: 'robot', key_value: setup.robotKey } as const;
    const start = performance.now();
    const grant = await post(setup.base, endpoints.photoUploadAccess, {
      ...key,
      event_name: setup.eventName,
      file_name: 'clip.mp4',
      content_type: 'video/mp4',
    });
    const form = new FormData();
    for (const [k, v] of Object.entries(grant.fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(fifteen)], { type: 'video/mp4' }), 'clip.mp4');
    const stored = await fetch(grant.url, { method: 'POST', body: form });
    if (stored.status !== 201) throw new Error(`storage ${stored.status}`);
    const photo = await post(setup.base, endpoints.photoUploadComplete, {
      ...key,
      key: grant.key,
    });
    for (;;) {
      const list = await post(
        setup.base,
        endpoints.ownerPhotoList,
        { event_id: setup.eventId, max_size: 10, page_number: 1 },
        setup.apiKey,
      );
      const now = list.photos.find((p) => p.id === photo.id);
      if (now?.status === 'failed') throw new Error('the clip failed');
      if (now?.status === 'ready' && now.urls.video) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(
      `upload to playable rendition, 15 s 1080p clip (${(fifteen.length / 2 ** 20).toFixed(1)} MB, ${engineName}): ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
  } finally {
    await setup.close();
  }
};

await main();
