import { parseArgs } from 'node:util';
import { emailSchema, newPasswordSchema, Role, roleNames } from '@flashbulb/shared';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { createContainer } from '../container.ts';
import { AppError } from '../lib/app-error.ts';
import { httpPost, runPrintAgent } from './print-agent.ts';
import { runRobotUpload } from './robot-upload.ts';

const USAGE = `Flashbulb command line

  npm run cli -- user create --email <e-mail> --role <super|admin|owner> [--organisation <id or name>]
                              [--temporary-password <password>]
  npm run cli -- organisation create --name <name>
  npm run cli -- organisation list
  npm run cli -- upload --event <code> --key <robot key> [--server <url>] [--watch]
                       [--attendee <id>] <files or folders>
      Uploads photos as a robot through the public API. A journal (.flashbulb-uploads.json in the
      folder) remembers what was sent, so re-running or restarting never uploads a file twice.
      --watch keeps watching the folders for new photos. --attendee puts every photo in that
      attendee's album. --server defaults to FLASHBULB_PUBLIC_URL
      or http://localhost:8080.

  npm run cli -- print-agent --server <url> --key <print station key> --pool <name>
                            [--printer <cups queue>]... [--state <folder>]
      Prints the pool's sheets on local CUPS queues (lp/lpstat; CUPS_SERVER picks the scheduler),
      skipping printers that are stopped, offline, out of paper or jammed. The state folder
      (default .flashbulb-print-agent) remembers sheets CUPS already took, so a restarted agent
      never prints one twice.

Uses the same configuration as the server (FLASHBULB_DATA_DIR, DATABASE_URL, SMTP_URL, ...).
With the embedded database, stop the server first: only one process can open it.
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

class UsageError extends Error {}

const run = async (argv: string[]): Promise<void> => {
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
      attendee: { type: 'string' },
      server: { type: 'string' },
      journal: { type: 'string' },
      watch: { type: 'boolean' },
      pool: { type: 'string' },
      printer: { type: 'string', multiple: true },
      state: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [noun, verb] = positionals;
  if (values.help || !noun) {
    process.stdout.write(USAGE);
    return;
  }
  if (noun === 'print-agent') {
    if (!values.server || !values.key || !values.pool || !values.printer?.length)
      throw new UsageError('print-agent needs --server, --key, --pool and at least one --printer');
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    process.once('SIGTERM', () => controller.abort());
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
      signal: controller.signal,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    return;
  }
  if (noun === 'upload') {
    // An HTTP client of the public API: no database, no configuration beyond the server address.
    const files = positionals.slice(1);
    if (!values.event || !values.key || files.length === 0) {
      throw new UsageError('upload needs --event, --key and at least one file or folder');
    }
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    process.once('SIGTERM', () => controller.abort());
    const summary = await runRobotUpload({
      server: values.server ?? process.env.FLASHBULB_PUBLIC_URL ?? 'http://localhost:8080',
      eventName: values.event.toUpperCase(),
      robotKey: values.key,
      ...(values.attendee ? { attendeeUid: values.attendee } : {}),
      paths: files,
      watch: values.watch ?? false,
      ...(values.journal ? { journalPath: values.journal } : {}),
      signal: controller.signal,
    });
    process.stdout.write(
      `Uploaded ${summary.uploaded}, skipped ${summary.skipped}, refused ${summary.refused}, failed ${summary.failed}.\n`,
    );
    if (summary.failed > 0) process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const container = await createContainer(config, pino({ level: 'warn' }));
  try {
    await container.startQueue();
    if (noun === 'user' && verb === 'create') {
      const email = emailSchema.safeParse(values.email ?? '');
      if (!email.success) throw new UsageError('--email must be an e-mail address');
      const role = ROLE_WORDS[(values.role ?? '').toLowerCase()];
      if (!role) throw new UsageError('--role must be super, admin or owner');
      let organisationId: number | null = null;
      if (values.organisation) {
        const organisation = await container.services.organisations.findByIdOrName(
          values.organisation,
        );
        if (!organisation) throw new UsageError(`No organisation "${values.organisation}"`);
        organisationId = organisation.id;
      }
      const temporary = values['temporary-password'];
      if (temporary !== undefined && !newPasswordSchema.safeParse(temporary).success) {
        throw new UsageError(
          '--temporary-password needs 8+ characters and must not be a common password',
        );
      }
      const user = await container.services.users.create(null, {
        email: email.data,
        role,
        organisation_id: organisationId,
        temporary_password: temporary,
      });
      process.stdout.write(
        `Created ${roleNames[user.role]} ${user.email} (id ${user.id}${user.organisation_name ? `, ${user.organisation_name}` : ''}).\n` +
          (temporary
            ? 'They sign in with the temporary password you gave, valid 7 days.\n'
            : `The temporary password was e-mailed to ${user.email}${config.providers.mail.kind === 'smtp' ? '' : ' (mail outbox: no SMTP configured)'}.\n`),
      );
    } else if (noun === 'organisation' && verb === 'create') {
      if (!values.name?.trim()) throw new UsageError('--name is required');
      const organisation = await container.services.organisations.create(null, values.name.trim());
      process.stdout.write(`Created organisation ${organisation.name} (id ${organisation.id}).\n`);
    } else if (noun === 'organisation' && verb === 'list') {
      const rows = await container.repositories.organisations.list();
      for (const row of rows) process.stdout.write(`${row.id}\t${row.name}\n`);
      if (rows.length === 0) process.stdout.write('No organisations yet.\n');
    } else {
      throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
    }
  } finally {
    await container.close();
  }
};

run(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof AppError) {
      process.stderr.write(`Refused: ${error.key}${error.field ? ` (${error.field})` : ''}\n`);
      process.exit(1);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
