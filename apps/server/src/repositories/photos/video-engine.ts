import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';

/** Every ffmpeg run: no banner, no stdin, errors only, overwrite the output. */
const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
import { MAX_PIXELS } from '@flashbulb/shared';

/** What the probe finds in a clip. Width and height are as shown (rotation applied). */
export interface VideoInfo {
  durationMs: number;
  width: number;
  height: number;
  /** Degrees the player turns the picture (0, 90, 180, 270). */
  rotation: number;
  videoCodec: string;
  audioCodec: string | null;
  container: string;
}

export type VideoProblem = 'unsupported_picture_format' | 'photo_too_large';

export interface RenditionOptions {
  /** The probe's answer for the input (sizes the output and the overlay). */
  info: Pick<VideoInfo, 'width' | 'height' | 'audioCodec'>;
  /** A PNG laid over the whole picture, already fitted to `renditionSize(info)`. */
  overlayPng?: Buffer;
  /** Only the first seconds (a paid event's protected preview). */
  maxSeconds?: number;
}

export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
}

/** The web rendition fits a 1080p frame in either orientation: long side 1920, short side 1080. */
const LONG_SIDE = 1920;
const SHORT_SIDE = 1080;
/** ffprobe reads headers only; a probe that takes longer than this is refused. */
const PROBE_TIMEOUT_MS = 15_000;
/** No single encode runs longer than this (the job's expiry is longer still). */
const ENCODE_TIMEOUT_MS = 20 * 60_000;

/** Even output dimensions that fit 1920×1080 (or 1080×1920), never enlarged. */
export const renditionSize = (info: { width: number; height: number }) => {
  const long = Math.max(info.width, info.height);
  const short = Math.min(info.width, info.height);
  const scale = Math.min(1, LONG_SIDE / long, SHORT_SIDE / short);
  const even = (n: number) => Math.max(2, Math.floor((n * scale) / 2) * 2);
  return { width: even(info.width), height: even(info.height) };
};

/**
 * The ffmpeg arguments of one web rendition: H.264 (high profile, yuv420p) and AAC stereo in an
 * MP4 whose index comes first (`faststart`: playback starts before the download ends), no
 * metadata of the input (location, camera), at most 1080p. Exported so the bench can time a bare
 * ffmpeg run with exactly the same settings.
 */
export const renditionArgs = (
  input: string,
  output: string,
  options: RenditionOptions & { overlayPath?: string },
): string[] => {
  const { width, height } = renditionSize(options.info);
  const scale = `[0:v]scale=${width}:${height},setsar=1,format=yuv420p`;
  const filter = options.overlayPath
    ? `${scale}[base];[base][1:v]overlay=0:0,format=yuv420p[v]`
    : `${scale}[v]`;
  return [
    ...FFMPEG_QUIET,
    '-i',
    input,
    ...(options.overlayPath ? ['-i', options.overlayPath] : []),
    ...(options.maxSeconds ? ['-t', String(options.maxSeconds)] : []),
    '-filter_complex',
    filter,
    '-map',
    '[v]',
    ...(options.info.audioCodec
      ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2']
      : ['-an']),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
};

const textOf = (value: unknown): string => (typeof value === 'string' ? value : 'unknown');

const rotationOf = (stream: Record<string, unknown>): number => {
  const tags = (stream.tags ?? {}) as Record<string, unknown>;
  let degrees = Number(tags.rotate ?? 0);
  const sideData = (stream.side_data_list ?? []) as Record<string, unknown>[];
  for (const item of sideData) {
    if (typeof item.rotation === 'number') degrees = -item.rotation;
  }
  if (!Number.isFinite(degrees)) return 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
};

/**
 * The video engine: ffmpeg and ffprobe as child processes. The embedded default takes the binaries
 * that `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe` carry; FLASHBULB_FFMPEG_PATH and
 * FLASHBULB_FFPROBE_PATH name a system build instead. Inputs are untrusted: every run has a time
 * limit, reads a private temp file and writes nothing but its output. Encodes run at the image
 * work's nice value, so requests go first.
 */
export class VideoEngine {
  constructor(
    private readonly tools: VideoTools,
    private readonly nice = 0,
  ) {}

  /** Where the binaries are: the configured paths, else the npm packages' own. */
  static resolveTools(config: { ffmpegPath?: string; ffprobePath?: string }): VideoTools {
    const require = createRequire(import.meta.url);
    const packaged = (name: string): string => (require(name) as { path: string }).path;
    return {
      ffmpeg: config.ffmpegPath || packaged('@ffmpeg-installer/ffmpeg'),
      ffprobe: config.ffprobePath || packaged('@ffprobe-installer/ffprobe'),
    };
  }

  /** Runs `body` with a private folder holding `input` as `in<ext>`; the folder is removed after. */
  async withInput<T>(
    input: Buffer | NodeJS.ReadableStream,
    body: (file: string, dir: string) => Promise<T>,
  ): Promise<T> {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-video-'));
    try {
      const file = path.join(dir, 'input');
      // A stream (an upload being completed) goes to disk as it arrives, never whole in memory.
      if (Buffer.isBuffer(input)) await writeFile(file, input, { mode: 0o600 });
      else await pipeline(input, createWriteStream(file, { mode: 0o600 }));
      return await body(file, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Duration, size, rotation and codecs, or why the bytes are not a clip we take. */
  async probe(file: string): Promise<VideoInfo | VideoProblem> {
    let out: string;
    try {
      out = await this.run(
        this.tools.ffprobe,
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
        PROBE_TIMEOUT_MS,
        false,
      );
    } catch {
      return 'unsupported_picture_format';
    }
    let parsed: { streams?: Record<string, unknown>[]; format?: Record<string, unknown> };
    try {
      parsed = JSON.parse(out) as typeof parsed;
    } catch {
      return 'unsupported_picture_format';
    }
    const streams = parsed.streams ?? [];
    const video = streams.find(
      (s) =>
        s.codec_type === 'video' &&
        (s.disposition as { attached_pic?: number } | undefined)?.attached_pic !== 1,
    );
    const audio = streams.find((s) => s.codec_type === 'audio');
    const durationSeconds = Number(parsed.format?.duration ?? video?.duration ?? NaN);
    const width = Number(video?.width ?? 0);
    const height = Number(video?.height ?? 0);
    if (!video || !width || !height || !(durationSeconds > 0)) return 'unsupported_picture_format';
    if (width * height > MAX_PIXELS) return 'photo_too_large';
    const rotation = rotationOf(video);
    const turned = rotation === 90 || rotation === 270;
    return {
      durationMs: Math.round(durationSeconds * 1000),
      width: turned ? height : width,
      height: turned ? width : height,
      rotation,
      videoCodec: textOf(video.codec_name),
      audioCodec: audio ? textOf(audio.codec_name) : null,
      container: textOf(parsed.format?.format_name),
    };
  }

  /** One frame as a JPEG (rotation applied), `atMs` into the clip. */
  async poster(file: string, atMs: number): Promise<Buffer> {
    const out = `${file}.poster.jpg`;
    await this.run(
      this.tools.ffmpeg,
      [
        ...FFMPEG_QUIET,
        '-ss',
        (atMs / 1000).toFixed(3),
        '-i',
        file,
        '-frames:v',
        '1',
        '-q:v',
        '2',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        out,
      ],
      PROBE_TIMEOUT_MS * 2,
    );
    return readFile(out);
  }

  /** A web-playable MP4 of the clip (see `renditionArgs`). */
  async rendition(file: string, name: string, options: RenditionOptions): Promise<Buffer> {
    const out = `${file}.${name}.mp4`;
    let overlayPath: string | undefined;
    if (options.overlayPng) {
      overlayPath = `${file}.${name}.overlay.png`;
      await writeFile(overlayPath, options.overlayPng, { mode: 0o600 });
    }
    await this.run(
      this.tools.ffmpeg,
      renditionArgs(file, out, { ...options, overlayPath }),
      ENCODE_TIMEOUT_MS,
    );
    return readFile(out);
  }

  /**
   * A made-up clip (test pattern, a tone when `audio`): what tests and the bench upload, so no
   * binary fixture is kept. `rotate` writes a display-rotation tag as a phone does.
   */
  async synthesize(options: {
    seconds: number;
    width: number;
    height: number;
    format: 'mp4' | 'mov' | 'webm' | 'gif';
    audio?: boolean;
    rotate?: 90 | 180 | 270;
    fps?: number;
  }): Promise<Buffer> {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-video-'));
    try {
      const out = path.join(dir, `sample.${options.format}`);
      const fps = options.fps ?? (options.format === 'gif' ? 10 : 25);
      const audio = options.audio && options.format !== 'gif';
      const codec =
        options.format === 'gif'
          ? ['-f', 'gif']
          : options.format === 'webm'
            ? [
                '-c:v',
                'libvpx-vp9',
                '-b:v',
                '300k',
                '-deadline',
                'realtime',
                '-cpu-used',
                '8',
                ...(audio ? ['-c:a', 'libopus'] : []),
              ]
            : [
                '-c:v',
                'libx264',
                '-preset',
                'ultrafast',
                '-pix_fmt',
                'yuv420p',
                ...(audio ? ['-c:a', 'aac'] : []),
              ];
      await this.run(
        this.tools.ffmpeg,
        [
          ...FFMPEG_QUIET,
          '-f',
          'lavfi',
          '-i',
          `testsrc=size=${options.width}x${options.height}:rate=${fps}`,
          ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'] : []),
          '-t',
          String(options.seconds),
          ...codec,
          out,
        ],
        ENCODE_TIMEOUT_MS,
        false,
      );
      if (!options.rotate) return await readFile(out);
      // The tag survives a stream copy (an encode would drop it).
      const turned = path.join(dir, `turned.${options.format}`);
      await this.run(
        this.tools.ffmpeg,
        [
          ...FFMPEG_QUIET,
          '-i',
          out,
          '-c',
          'copy',
          '-metadata:s:v:0',
          `rotate=${options.rotate}`,
          turned,
        ],
        ENCODE_TIMEOUT_MS,
        false,
      );
      return await readFile(turned);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs a tool; answers its stdout, rejects with its last stderr line on failure or timeout. */
  private run(command: string, args: string[], timeoutMs: number, lowered = true): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      if (lowered && this.nice > 0 && child.pid !== undefined) {
        try {
          setPriority(child.pid, this.nice);
        } catch {
          // the priority is a courtesy; the encode runs either way
        }
      }
      const stdout: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return resolve(Buffer.concat(stdout).toString());
        const last = stderr.trim().split('\n').pop() ?? '';
        reject(new Error(`${path.basename(command)} failed (${signal ?? code}): ${last}`));
      });
    });
  }
}
