import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  createContractClient,
  emailSchema,
  endpoints,
  isContractError,
  newPasswordSchema,
  Role,
  roleNames,
  type Organisation,
  type User,
} from '@flashbulb/shared';
import pino from 'pino';
import { loadConfig, type AppConfig } from '../config.ts';
import { createContainer, embeddedDatabaseFolder, openConfiguredDatabase } from '../container.ts';
import { DataDirLockedError, readLockHolder } from '../db/data-dir-lock.ts';
import { AppError } from '../lib/app-error.ts';
import { describeOpenModes, secureDataDir } from '../lib/data-dir-modes.ts';
import { httpPost, runPrintAgent } from './print-agent.ts';
import { describeSummary, runRobotUpload, type InstantLinkOut } from './robot-upload.ts';
import { runOperations } from './operations.ts';
import { startTerminalSim, type TerminalOutcome } from './terminal-sim.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Flashbulb command line

  npm run cli -- user create --email <e-mail> --role <super|admin|owner> [--organisation <id or name>]
                              [--temporary-password <password>]
  npm run cli -- organisation create --name <name>
  npm run cli -- organisation list
  npm run cli -- upload --key <robot key> [--event <code>] [--server <url>] [--watch] [--json]
                       [--attendee <id>]... <files or folders>
      Uploads photos as a robot through the public API. It first asks the server which event the
      key's robot feeds and says so (or that the key is unknown, or attached to no event, and how
      to fix it); without --event the photos go to that event. A journal (.flashbulb-uploads.json
      in the folder) remembers what was sent, so re-running or restarting never uploads a file twice.
      --watch keeps watching the folders for new photos. --attendee puts every photo in that
      attendee's album; give it more than once for group photos (every one of them gets it). A
      file sent before for other attendees is sent again: the server adds the photo it has to
      these albums ("attached"), it never stores it twice. The server is --server, else
      FLASHBULB_URL, else the server running on this FLASHBULB_DATA_DIR, else FLASHBULB_PUBLIC_URL.
      Each file's instant link (its photo's guest page and short code) is printed as soon as its
      grant arrives, before the bytes are sent, so a booth can show the QR code at once. --json
      prints a JSON line per link ({"type":"link","file","instant_url","instant_code"}) and the
      summary as JSON; progress goes to stderr.

  npm run cli -- print-agent --server <url> --key <print station key> --pool <name>
                            [--printer <cups queue>]... [--state <folder>]
      Prints the pool's sheets on local CUPS queues (lp/lpstat; CUPS_SERVER picks the scheduler),
      skipping printers that are stopped, offline, out of paper or jammed. The state folder
      (default .flashbulb-print-agent) remembers sheets CUPS already took, so a restarted agent
      never prints one twice.

  npm run cli -- backup create [--to <folder>] [--keep <n>]
      Writes a backup folder (flashbulb-backup-<time>) into --to (default <data dir>/backups): a
      consistent snapshot of the database and every stored object with its SHA-256. --keep <n>
      then removes all but the newest n backups there. While a server runs on the embedded
      database the backup goes through its API (--api-key; written to <data dir>/backups).
  npm run cli -- backup restore --from <backup folder> [--force]
      Verifies every checksum, then restores database, objects and secret key onto this install,
      which must be empty (no users, events or objects) unless --force. Stop the server first.
  npm run cli -- integrity check [--json]
      Compares what the database names (originals with their SHA-256, derivatives, selfies,
      profile photos, print sheets) with what storage holds: lists missing objects, objects no row
      owns and checksum mismatches. Exits 1 when it found any.

  npm run cli -- terminal-sim --port <port> [--host <address>] [--outcome approve|decline|timeout]
      A payment terminal simulator (POST /fcc/pay, /fcc/check-status, /fcc/cancel) for venues
      testing without hardware; POST /sim/outcome and /sim/resolve choose what the card does.

Uses the same configuration as the server (FLASHBULB_DATA_DIR, DATABASE_URL, SMTP_URL, ...).
With the embedded database only one process may open it: while a server runs on it, the user and
organisation commands go through that server's API and need an API key of a user allowed to do
them (--api-key or FLASHBULB_API_KEY; create one in the console under API keys).
`;

const ROLE_WORDS: Record<string, Role> = {
  super: Role.SUPER_USER,
  '1': Role.SUPER_USER,
  admin: Role.ADMIN,
  '2': Role.ADMIN,
  owner: Role.EVENT_OWNER,
  'event-owner': Role.EVENT_OWNER,
  '3': Role.EVENT_OWNER,
};

/** What the user and organisation commands need: the API of a running server, or the database. */
interface AdminTarget {
  listOrganisations(): Promise<Organisation[]>;
  createOrganisation(name: string): Promise<Organisation>;
  createUser(input: {
    email: string;
    role: Role;
    organisation_id: number | null;
    temporary_password?: string;
  }): Promise<User>;
  /** How the temporary password reaches a user it was not given for. */
  mailNote(email: string): string;
  close(): Promise<void>;
}

const findOrganisation = (rows: Organisation[], value: string): Organisation | undefined =>
  rows.find((o) => String(o.id) === value || o.name.toLowerCase() === value.toLowerCase());

/** Through the running server's API (the typed contract client), as the API key's user. */
const apiTarget = (url: string, apiKey: string): AdminTarget => {
  const client = createContractClient({ baseUrl: url });
  const options = { authorization: apiKey };
  return {
    async listOrganisations() {
      return (await client.call(endpoints.listOrganisations, {}, options)).organisations;
    },
    createOrganisation: (name) => client.call(endpoints.createOrganisation, { name }, options),
    createUser: (input) => client.call(endpoints.createUser, input, options),
    mailNote: (email) => `The temporary password was e-mailed to ${email} by the server.\n`,
    close: () => Promise.resolve(),
  };
};

/** Opens the database itself (no server runs on it), holding the folder's lock meanwhile. */
const databaseTarget = async (config: AppConfig, io: CliIo): Promise<AdminTarget> => {
  for (const line of describeOpenModes(await secureDataDir(config.dataDir)))
    io.err(`Warning: ${line}\n`);
  const database = await openConfiguredDatabase(config, 'cli');
  const logger = pino({ level: 'warn' }, { write: (line: string) => io.out(line) });
  const container = await createContainer(config, logger, { database }).catch(
    async (error: unknown) => {
      await database.close();
      throw error;
    },
  );
  await container.startQueue();
  return {
    async listOrganisations() {
      const rows = await container.repositories.organisations.list();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        currency: row.currency,
        created_date: row.createdAt.toISOString(),
      }));
    },
    createOrganisation: (name) => container.services.organisations.create(null, name),
    createUser: (input) => container.services.users.create(null, input),
    mailNote: (email) =>
      `The temporary password was e-mailed to ${email}${config.providers.mail.kind === 'smtp' ? '' : ' (mail outbox: no SMTP configured)'}.\n`,
    async close() {
      await container.close();
      await database.close();
    },
  };
};

/**
 * One writer per embedded database: when a live server holds the folder, talk to its API; when
 * nobody does, open it (and hold the lock). PostgreSQL takes many writers: opened directly.
 */
const adminTarget = async (
  config: AppConfig,
  apiKey: string | undefined,
  io: CliIo,
): Promise<AdminTarget> => {
  if (config.databaseUrl) return databaseTarget(config, io);
  const folder = embeddedDatabaseFolder(config);
  const holder = await readLockHolder(folder);
  if (holder?.role === 'server' && holder.url) {
    if (!apiKey) {
      throw new UsageError(
        `A Flashbulb server is running on this database (${holder.url}, pid ${holder.pid}), so this ` +
          'command goes through its API: give an API key with --api-key or FLASHBULB_API_KEY ' +
          '(create one in the console under API keys), or stop the server first.',
      );
    }
    return apiTarget(holder.url, apiKey);
  }
  if (holder) throw new DataDirLockedError(path.resolve(folder), holder);
  return databaseTarget(config, io);
};

/** The robot client's server: --server, FLASHBULB_URL, the running server, FLASHBULB_PUBLIC_URL. */
const uploadServer = async (flag: string | undefined, env: NodeJS.ProcessEnv): Promise<string> => {
  if (flag) return flag;
  if (env.FLASHBULB_URL) return env.FLASHBULB_URL;
  if (!env.DATABASE_URL) {
    const folder = path.join(path.resolve(env.FLASHBULB_DATA_DIR ?? './data'), 'db');
    const holder = await readLockHolder(folder);
    if (holder?.url) return holder.url;
  }
  if (env.FLASHBULB_PUBLIC_URL) return env.FLASHBULB_PUBLIC_URL;
  throw new UsageError(
    'upload needs the server address: --server <url> or FLASHBULB_URL (no server runs on this data folder)',
  );
};

/** Runs one command; answers its exit code (1 when it failed or was refused). */
const run = async (argv: string[], io: CliIo): Promise<number> => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      organisation: { type: 'string' },
      'temporary-password': { type: 'string' },
      name: { type: 'string' },
      event: { type: 'string' },
      key: { type: 'string' },
      attendee: { type: 'string', multiple: true },
      server: { type: 'string' },
      journal: { type: 'string' },
      'api-key': { type: 'string' },
      watch: { type: 'boolean' },
      pool: { type: 'string' },
      printer: { type: 'string', multiple: true },
      state: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      outcome: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      keep: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [noun, verb] = positionals;
  if (values.help || !noun) {
    io.out(USAGE);
    return 0;
  }
  if (noun === 'terminal-sim') {
    const port = Number(values.port);
    if (!values.port || !Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('terminal-sim needs --port <0-65535>');
    const outcome = (values.outcome ?? 'approve') as TerminalOutcome;
    if (!['approve', 'decline', 'timeout'].includes(outcome))
      throw new UsageError('--outcome is approve, decline or timeout');
    const sim = await startTerminalSim({ port, host: values.host ?? '127.0.0.1', outcome });
    io.out(`terminal-sim listening on ${sim.url}\n`);
    const stop = io.stopSignal();
    if (!stop.aborted)
      await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve()));
    await sim.close();
    return 0;
  }
  if (noun === 'print-agent') {
    if (!values.server || !values.key || !values.pool || !values.printer?.length)
      throw new UsageError('print-agent needs --server, --key, --pool and at least one --printer');
    const post = httpPost(values.server);
    const pool = values.pool;
    await runPrintAgent({
      // The key names the pool; refuse to run when --pool says another one.
      post: async (route, body) => {
        const result = await post(route, body);
        const named = (result as { printer_pool_name?: string }).printer_pool_name;
        if (named !== undefined && named !== pool)
          throw new UsageError(`this key prints pool ${named}, not ${pool}`);
        return result;
      },
      key: values.key,
      printers: values.printer,
      stateDir: values.state ?? '.flashbulb-print-agent',
      signal: io.stopSignal(),
      log: (line) => io.out(`${line}\n`),
    });
    return 0;
  }
  if (noun === 'upload') {
    // An HTTP client of the public API: no database, no configuration beyond the server address.
    const files = positionals.slice(1);
    if (!values.key || files.length === 0) {
      throw new UsageError('upload needs --key and at least one file or folder');
    }
    const summary = await runRobotUpload({
      server: await uploadServer(values.server, io.env),
      ...(values.event ? { eventName: values.event.toUpperCase() } : {}),
      robotKey: values.key,
      ...(values.attendee ? { attendeeUids: values.attendee } : {}),
      paths: files,
      watch: values.watch ?? false,
      ...(values.journal ? { journalPath: values.journal } : {}),
      signal: io.stopSignal(),
      // --json: one JSON line per instant link on stdout as it comes, the summary as JSON last;
      // the progress lines go to stderr.
      ...(values.json
        ? {
            log: (line: string) => io.err(`${line}\n`),
            onLink: (link: InstantLinkOut) =>
              io.out(`${JSON.stringify({ type: 'link', ...link })}\n`),
          }
        : { log: (line: string) => io.out(`${line}\n`) }),
    });
    io.out(
      values.json
        ? `${JSON.stringify({ type: 'summary', ...summary })}\n`
        : describeSummary(summary),
    );
    return summary.failed > 0 || summary.stopped ? 1 : 0;
  }
  if (noun === 'backup' || noun === 'integrity') return runOperations(noun, verb, values, io);
  const known =
    (noun === 'user' && verb === 'create') ||
    (noun === 'organisation' && (verb === 'create' || verb === 'list'));
  if (!known) throw new UsageError(`Unknown command: ${positionals.join(' ')}`);

  // Input checks before touching the server or the database.
  let userInput:
    { email: string; role: Role; temporary?: string; organisation?: string } | undefined;
  if (noun === 'user') {
    const email = emailSchema.safeParse(values.email ?? '');
    if (!email.success) throw new UsageError('--email must be an e-mail address');
    const role = ROLE_WORDS[(values.role ?? '').toLowerCase()];
    if (!role) throw new UsageError('--role must be super, admin or owner');
    const temporary = values['temporary-password'];
    if (temporary !== undefined && !newPasswordSchema.safeParse(temporary).success) {
      throw new UsageError(
        '--temporary-password needs 8+ characters and must not be a common password',
      );
    }
    userInput = {
      email: email.data,
      role,
      ...(temporary !== undefined ? { temporary } : {}),
      ...(values.organisation ? { organisation: values.organisation } : {}),
    };
  }
  if (noun === 'organisation' && verb === 'create' && !values.name?.trim())
    throw new UsageError('--name is required');

  const config = loadConfig(io.env);
  const target = await adminTarget(config, values['api-key'] ?? io.env.FLASHBULB_API_KEY, io);
  try {
    if (userInput) {
      let organisationId: number | null = null;
      if (userInput.organisation) {
        const organisation = findOrganisation(
          await target.listOrganisations(),
          userInput.organisation,
        );
        if (!organisation) throw new UsageError(`No organisation "${userInput.organisation}"`);
        organisationId = organisation.id;
      }
      const user = await target.createUser({
        email: userInput.email,
        role: userInput.role,
        organisation_id: organisationId,
        ...(userInput.temporary !== undefined ? { temporary_password: userInput.temporary } : {}),
      });
      io.out(
        `Created ${roleNames[user.role]} ${user.email} (id ${user.id}${user.organisation_name ? `, ${user.organisation_name}` : ''}).\n` +
          (userInput.temporary
            ? 'They sign in with the temporary password you gave, valid 7 days.\n'
            : target.mailNote(user.email)),
      );
    } else if (verb === 'create') {
      const organisation = await target.createOrganisation(values.name!.trim());
      io.out(`Created organisation ${organisation.name} (id ${organisation.id}).\n`);
    } else {
      const rows = await target.listOrganisations();
      for (const row of rows) io.out(`${row.id}\t${row.name}\n`);
      if (rows.length === 0) io.out('No organisations yet.\n');
    }
  } finally {
    await target.close();
  }
  return 0;
};

/**
 * One command of the command line: its output written to `io`, its failure told there too.
 * Answers the exit code: 0 done, 1 failed or refused, 2 the command was given wrongly.
 */
export const runCli = async (argv: string[], io: CliIo): Promise<number> => {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof AppError) {
      io.err(`Refused: ${error.key}${error.field ? ` (${error.field})` : ''}\n`);
      return 1;
    }
    if (isContractError(error) && error.kind === 'nok') {
      io.err(
        `Refused by the server: ${error.messageKey}${error.field ? ` (${error.field})` : ''}\n`,
      );
      return 1;
    }
    io.err(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
};
