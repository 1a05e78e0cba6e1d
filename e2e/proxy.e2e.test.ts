import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  endpoints,
  HEALTH_PATH,
  PHOTO_STREAM_PATH,
  type Endpoint,
} from '@flashbulb/shared';
import { startThrowawayCluster, type ThrowawayCluster } from '../scripts/pg-cluster.mjs';
import { ALBUM_ADMIN, albumServerEnv, photoFolder, robotUpload } from './support/albums.ts';
import { repoRoot } from './support/paths.ts';
import { freePort, startServer, type RunningServer } from './support/server.ts';

/**
 * The deployment of docs/deploy.md, run: Debian's nginx terminating TLS (a certificate made here)
 * with `deploy/nginx/flashbulb.conf`, in front of two API processes and one worker started with
 * the Environment= lines of `deploy/systemd/*.service`, on one PostgreSQL database. What a guest
 * and an operator get through it: https only, HSTS, Secure cookies, their own address in the
 * server's logs (not one they claim), and live photos over the stream while uploads go through
 * the proxy to storage.
 */

const execFileAsync = promisify(execFile);
const deployDir = path.join(repoRoot, 'deploy');

/** `Environment=NAME=value` lines of a systemd unit, `%i` replaced by the instance. */
const unitEnvironment = async (unit: string, instance = ''): Promise<Record<string, string>> => {
  const text = await readFile(path.join(deployDir, 'systemd', unit), 'utf8');
  const env: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/^Environment=([A-Z_][A-Z0-9_]*)=(.*)$/gm))
    env[name!] = value!.replaceAll('%i', instance);
  return env;
};

/** Replaces `from` by `to` in `text`, exactly `times` times: the deploy file must still say it. */
const replaceExactly = (text: string, from: string, to: string, times = 1): string => {
  const found = text.split(from).length - 1;
  if (found !== times)
    throw new Error(`deploy/nginx/flashbulb.conf: expected ${times}× "${from}", found ${found}`);
  return text.replaceAll(from, to);
};

const waitForPort = async (port: number, child: ChildProcess, log: () => Promise<string>) => {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${await log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not listen on ${port}:\n${await log()}`);
};

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let cluster: ThrowawayCluster;
let work: string;
let ca: Buffer;
let httpsPort: number;
let httpPort: number;
let nginx: ChildProcess;
let apis: RunningServer[] = [];
let worker: RunningServer;
let base: string;

/**
 * A request to nginx over TLS, trusting the test's certificate; from 127.0.0.2 when asked. By hand
 * with node:https, not the contract client: Node's fetch can neither trust one extra certificate
 * per request nor pick the local address the client connects from.
 */
const viaProxy = (
  urlPath: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    localAddress?: string;
  } = {},
): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: httpsPort,
        path: urlPath,
        method: options.method ?? 'GET',
        headers: { host: `localhost:${httpsPort}`, ...options.headers },
        ca,
        localAddress: options.localAddress,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });

/** One contract call through the proxy; answers the envelope's result (a nok reply throws). */
const call = async <E extends Endpoint>(
  endpoint: E,
  body: unknown,
  token?: string,
): Promise<{ reply: Reply; result: unknown }> => {
  const reply = await viaProxy(`${API_BASE}${endpoint.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const envelope = JSON.parse(reply.body) as { status: string; result?: unknown; error?: unknown };
  if (envelope.status !== 'ok')
    throw new Error(`${endpoint.path}: ${reply.status} ${JSON.stringify(envelope.error)}`);
  return { reply, result: envelope.result };
};

const logsOf = (servers: RunningServer[]) => servers.map((s) => s.output()).join('\n');

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'flashbulb-proxy-'));
  cluster = await startThrowawayCluster();
  await execFileAsync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    path.join(work, 'key.pem'),
    '-out',
    path.join(work, 'cert.pem'),
  ]);
  ca = await readFile(path.join(work, 'cert.pem'));
  httpsPort = await freePort();
  httpPort = await freePort();
  base = `https://localhost:${httpsPort}`;

  // What /etc/flashbulb/flashbulb.env would hold, the same for every process.
  const shared = {
    ...albumServerEnv,
    DATABASE_URL: cluster.url,
    FLASHBULB_SECRET_KEY: randomBytes(36).toString('base64'),
    FLASHBULB_PUBLIC_URL: base,
    // The robot client and the API's own calls to the public URL trust the test's certificate.
    NODE_EXTRA_CA_CERTS: path.join(work, 'cert.pem'),
    LOG_LEVEL: 'info',
  };
  const dataDir = path.join(work, 'data');
  const apiUnit = await unitEnvironment('flashbulb-api@.service', '3001');
  const workerUnit = await unitEnvironment('flashbulb-worker.service');
  expect(apiUnit).toMatchObject({ FLASHBULB_ROLE: 'api', FLASHBULB_TRUST_PROXY: '1' });
  expect(workerUnit).toMatchObject({ FLASHBULB_ROLE: 'worker' });
  // startServer picks the ports; everything else comes from the units.
  const withoutPort = ({ PORT: _port, HOST: _host, ...rest }: Record<string, string>) => rest;
  const first = await startServer({ dataDir, env: { ...shared, ...withoutPort(apiUnit) } });
  apis = [first];
  const [second, started] = await Promise.all([
    startServer({ dataDir, env: { ...shared, ...withoutPort(apiUnit) } }),
    startServer({ dataDir, env: { ...shared, ...withoutPort(workerUnit) } }),
  ]);
  apis.push(second);
  worker = started;

  let site = await readFile(path.join(deployDir, 'nginx', 'flashbulb.conf'), 'utf8');
  site = replaceExactly(site, 'server 127.0.0.1:3001;', `server ${new URL(first.url).host};`);
  site = replaceExactly(site, 'server 127.0.0.1:3002;', `server ${new URL(second.url).host};`);
  site = replaceExactly(site, '    listen 80;\n', `    listen 127.0.0.1:${httpPort};\n`);
  site = replaceExactly(site, '    listen [::]:80;\n', '');
  site = replaceExactly(
    site,
    '    listen 443 ssl http2;\n',
    `    listen 127.0.0.1:${httpsPort} ssl http2;\n`,
  );
  site = replaceExactly(site, '    listen [::]:443 ssl http2;\n', '');
  site = replaceExactly(site, 'server_name photos.example.com;', 'server_name localhost;', 2);
  site = replaceExactly(
    site,
    '/etc/letsencrypt/live/photos.example.com/fullchain.pem',
    path.join(work, 'cert.pem'),
  );
  site = replaceExactly(
    site,
    '/etc/letsencrypt/live/photos.example.com/privkey.pem',
    path.join(work, 'key.pem'),
  );
  await writeFile(path.join(work, 'flashbulb.conf'), site);
  // The main file Debian ships (/etc/nginx/nginx.conf), cut to what a private instance needs.
  await writeFile(
    path.join(work, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${work}/nginx.pid;`,
      `error_log ${work}/error.log warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      `  access_log ${work}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${work}/${kind}-temp;`,
      ),
      `  include ${work}/flashbulb.conf;`,
      '}',
    ].join('\n'),
  );
  await execFileAsync('nginx', ['-t', '-q', '-c', path.join(work, 'nginx.conf'), '-p', work]);
  nginx = spawn('nginx', ['-c', path.join(work, 'nginx.conf'), '-p', work, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  await waitForPort(httpsPort, nginx, () =>
    readFile(path.join(work, 'error.log'), 'utf8').catch(() => ''),
  );
}, 180_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    nginx.kill('SIGTERM');
    await new Promise((resolve) => nginx.once('exit', resolve));
  }
  await Promise.all([...apis, ...(worker ? [worker] : [])].map((s) => s.stop()));
  await cluster?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('behind nginx with TLS: two API processes and a worker on PostgreSQL', () => {
  it('plain http only redirects to https', async () => {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: httpPort, path: '/album?x=1', headers: { host: 'localhost' } },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }),
          );
        },
      );
      req.once('error', reject);
      req.end();
    });
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('https://localhost/album?x=1');
  });

  it('answers over TLS with HSTS from both API processes; the console page loads', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `proxy-spread-${i}`);
    for (const id of ids) {
      const reply = await viaProxy(HEALTH_PATH, { headers: { 'x-request-id': id } });
      expect(reply.status).toBe(200);
      expect(reply.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
      expect(reply.headers['x-request-id']).toBe(id);
    }
    // Round robin: each API process served some of them.
    for (const api of apis)
      await expect.poll(() => ids.some((id) => api.output().includes(`"${id}"`))).toBe(true);
    const page = await viaProxy('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['strict-transport-security']).toBeDefined();
  });

  it("logs the client's own address, never the one it claims in X-Forwarded-For", async () => {
    const reply = await viaProxy(HEALTH_PATH, {
      localAddress: '127.0.0.2',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'proxy-client-address' },
    });
    expect(reply.status).toBe(200);
    // The log line reaches us through the process's stdout pipe: wait for it.
    const requestLine = () =>
      logsOf(apis)
        .split('\n')
        .find((l) => l.includes('"proxy-client-address"') && l.includes('remoteAddress'));
    await expect.poll(requestLine).toBeDefined();
    const line = requestLine();
    const logged = JSON.parse(line!) as { req: { remoteAddress: string } };
    expect(logged.req.remoteAddress).toBe('127.0.0.2');
    expect(logsOf(apis)).not.toContain('203.0.113.9');
  });

  it('signs in with Secure, httpOnly cookies and streams a photo the robot uploads through the proxy', async () => {
    const { reply: signedIn, result } = await call(endpoints.signIn, {
      username: ALBUM_ADMIN.email,
      password: ALBUM_ADMIN.password,
    });
    const cookies = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookies.find((c) => c.startsWith('flashbulb_refresh='))).toMatch(/;\s*HttpOnly/i);
    const token = (result as { authentication_result?: { access_token?: string } })
      .authentication_result?.access_token;
    expect(token).toBeTruthy();

    const organisation = (await call(endpoints.createOrganisation, { name: 'Proxy' }, token))
      .result as { id: number };
    const robot = (
      await call(endpoints.createRobot, { organisation_id: organisation.id, name: 'Cam' }, token)
    ).result as { id: number; api_key: string };
    const { defaultEventOpts } = await import('@flashbulb/shared');
    const event = (
      await call(
        endpoints.createEvent,
        {
          organisation_id: organisation.id,
          full_name: 'Behind the proxy',
          email_from_address: ALBUM_ADMIN.email,
          opts: { ...defaultEventOpts(), description: 'behind the proxy' },
          robot_id_array: [robot.id],
        },
        token,
      )
    ).result as { name: string; public_api_key: string; display_token: string };

    // The guest's live stream, opened through nginx before the photo exists.
    const query = new URLSearchParams({
      key_type: 'public',
      key_value: event.public_api_key,
      display: event.display_token,
    });
    let streamed = '';
    const photoArrived = new Promise<string>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port: httpsPort,
          path: `${API_BASE}${PHOTO_STREAM_PATH}?${query}`,
          headers: { host: `localhost:${httpsPort}`, accept: 'text/event-stream' },
          ca,
        },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            streamed += chunk;
            const block = streamed
              .split('\n\n')
              .find((b) => b.split('\n').includes('event: photo'));
            if (block) {
              resolve(block);
              req.destroy();
            }
          });
        },
      );
      req.once('error', (error) => {
        if (!streamed.includes('event: photo')) reject(error);
      });
      req.end();
    });
    // The stream is open (its first comment came through the proxy unbuffered) before the upload.
    await expect.poll(() => streamed, { timeout: 15_000 }).toContain(': connected');

    const folder = await photoFolder({ 'proxy-1.jpg': '#3366aa' });
    try {
      // The robot client, as a booth PC would run it, against the https address.
      await robotUpload(base, { code: event.name, robotKey: robot.api_key }, folder, {
        NODE_EXTRA_CA_CERTS: path.join(work, 'cert.pem'),
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // The worker made the derivatives; the API process holding the stream heard it from the
    // database and sent it on through nginx.
    const block = await Promise.race([
      photoArrived,
      new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(
                `no photo on the stream within 60 s; stream:\n${streamed}\napi:\n${logsOf(apis).slice(-4000)}\nworker:\n${worker.output().slice(-4000)}`,
              ),
            ),
          60_000,
        ),
      ),
    ]);
    const photo = JSON.parse(
      block
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    ) as {
      urls: { thumbnail: string | null };
    };
    const thumb = photo.urls.thumbnail;
    expect(thumb).toMatch(new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));
    const image = await viaProxy(new URL(thumb!).pathname + new URL(thumb!).search);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(worker.output()).not.toContain('"level":50');
  });
});
