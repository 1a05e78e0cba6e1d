import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A private CUPS for the printing tests: its own cupsd (Debian `cups`) with its own cupsd.conf,
 * port, spool and state in a temp dir — never the system service. Queues print to PDF files in
 * `<dir>/out/<queue>.pdf` through a 4×6 PDF driver (CUPS's own pdftopdf/imagetopdf filters).
 * cups-pdf's backend reads its output folder from /etc/cups only, so the queues use CUPS's
 * `file:` device (allowed by `FileDevice Yes` in this cupsd's cups-files.conf) instead.
 */
export interface TestCups {
  server: string;
  dir: string;
  outFile(queue: string): string;
  addQueue(queue: string): Promise<void>;
  lp(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

const PPD = `*PPD-Adobe: "4.3"
*FormatVersion: "4.3"
*FileVersion: "1.0"
*LanguageVersion: English
*LanguageEncoding: ISOLatin1
*PCFileName: "FB4X6.PPD"
*Manufacturer: "Flashbulb"
*Product: "(Flashbulb Test Photo Printer)"
*ModelName: "Flashbulb 4x6 PDF"
*ShortNickName: "Flashbulb 4x6 PDF"
*NickName: "Flashbulb 4x6 PDF"
*PSVersion: "(3010.000) 0"
*LanguageLevel: "3"
*ColorDevice: True
*DefaultColorSpace: RGB
*FileSystem: False
*Throughput: "1"
*LandscapeOrientation: Plus90
*TTRasterizer: Type42
*cupsVersion: 2.4
*cupsFilter2: "application/pdf application/pdf 0 -"
*OpenUI *PageSize/Media Size: PickOne
*OrderDependency: 10 AnySetup *PageSize
*DefaultPageSize: 4x6
*PageSize 4x6/4x6": "<</PageSize[288 432]>>setpagedevice"
*CloseUI: *PageSize
*OpenUI *PageRegion/Media Size: PickOne
*OrderDependency: 10 AnySetup *PageRegion
*DefaultPageRegion: 4x6
*PageRegion 4x6/4x6": "<</PageSize[288 432]>>setpagedevice"
*CloseUI: *PageRegion
*DefaultImageableArea: 4x6
*ImageableArea 4x6/4x6": "0 0 288 432"
*DefaultPaperDimension: 4x6
*PaperDimension 4x6/4x6": "288 432"
`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export const startCups = async (): Promise<TestCups> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-cups-'));
  for (const sub of ['spool', 'cache', 'state', 'logs', 'out']) await mkdir(path.join(dir, sub));
  const port = await freePort();
  const server = `127.0.0.1:${port}`;
  await writeFile(
    path.join(dir, 'cupsd.conf'),
    `Listen ${server}
LogLevel warn
WebInterface No
Browsing Off
DefaultAuthType None
<Location />
  Order allow,deny
  Allow all
</Location>
<Policy default>
  JobPrivateAccess all
  JobPrivateValues none
  SubscriptionPrivateAccess all
  SubscriptionPrivateValues none
  <Limit All>
    Order allow,deny
    Allow all
  </Limit>
</Policy>
`,
  );
  // cupsd refuses `User root`; as root it runs filters as its default user (lp) and needs the
  // spool to be reachable, which the relaxed sandbox allows.
  await writeFile(
    path.join(dir, 'cups-files.conf'),
    `FileDevice Yes
ServerRoot ${dir}
RequestRoot ${dir}/spool
CacheDir ${dir}/cache
StateDir ${dir}/state
TempDir ${dir}/spool
ErrorLog ${dir}/logs/error_log
AccessLog ${dir}/logs/access_log
PageLog ${dir}/logs/page_log
ServerBin /usr/lib/cups
DataDir /usr/share/cups
Sandboxing Relaxed
`,
  );
  await writeFile(path.join(dir, 'fb4x6.ppd'), PPD);
  const env = { ...process.env, CUPS_SERVER: server };
  const child: ChildProcess = spawn(
    '/usr/sbin/cupsd',
    ['-f', '-c', path.join(dir, 'cupsd.conf'), '-s', path.join(dir, 'cups-files.conf')],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once the scheduler answers (awaited, bounded).
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await run('lpstat', ['-r'], { env })
      .then(({ stdout }) => stdout.includes('scheduler is running'))
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('test cupsd did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const outFile = (queue: string) => path.join(dir, 'out', `${queue}.pdf`);
  return {
    server,
    dir,
    outFile,
    async addQueue(queue) {
      await run(
        'lpadmin',
        ['-p', queue, '-E', '-v', `file://${outFile(queue)}`, '-P', path.join(dir, 'fb4x6.ppd')],
        { env },
      );
    },
    async lp(args) {
      const [cmd, ...rest] = args;
      const { stdout } = await run(cmd!, rest, { env });
      return stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
};
