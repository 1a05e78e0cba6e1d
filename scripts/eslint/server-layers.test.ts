import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import rule from './server-layers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverSrc = path.join(repoRoot, 'apps/server/src');
const RULE = 'flashbulb/server-layers';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

/** The absolute file name of `relative` below apps/server/src. */
const at = (relative: string) => path.join(serverSrc, relative);

const SERVICE = at('services/events/event.service.ts');
const REPOSITORY = at('repositories/events/event.repository.ts');

tester.run('server-layers: services never import routes or http', rule, {
  valid: [
    {
      filename: SERVICE,
      code: "import { x } from '../../repositories/events/event.repository.ts';",
    },
    { filename: SERVICE, code: "import { x } from '../../access/rules.ts';" },
    { filename: SERVICE, code: "import { x } from './event-rules.ts';" },
    { filename: SERVICE, code: "import { endpoints } from '@flashbulb/shared';" },
    // a route may import routes/ and http/; only services may not
    { filename: at('routes/media.routes.ts'), code: "import { x } from '../http/envelope.ts';" },
  ],
  invalid: [
    {
      filename: SERVICE,
      code: "import { x } from '../../routes/handlers.ts';",
      errors: [
        {
          messageId: 'serviceImportsTransport',
          data: { layer: 'routes', specifier: '../../routes/handlers.ts' },
        },
      ],
    },
    {
      filename: SERVICE,
      code: "import type { X } from '../../http/envelope.ts';",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "export { x } from '../../http/envelope.ts';",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "export * from '../../routes/handlers.ts';",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "const load = () => import('../../routes/handlers.ts');",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "type Reply = import('../../http/envelope.ts').Envelope<unknown>;",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "const handlers = require('../../routes/handlers.ts');",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
    {
      filename: SERVICE,
      code: "import envelope = require('../../http/envelope.ts');",
      errors: [{ messageId: 'serviceImportsTransport' }],
    },
  ],
});

tester.run('server-layers: repositories never import services', rule, {
  valid: [
    { filename: REPOSITORY, code: "import { x } from '../sql-helpers.ts';" },
    { filename: REPOSITORY, code: "import { x } from '../../db/schema.ts';" },
  ],
  invalid: [
    {
      filename: REPOSITORY,
      code: "import { x } from '../../services/events/event.service.ts';",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "import type { X } from '../../services/events/event.service.ts';",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "export type { X } from '../../services/events/event.service.ts';",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "export * from '../../services/events/event.service.ts';",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "const s = await import('../../services/events/event.service.ts');",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "type S = import('../../services/events/event.service.ts').EventService;",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "const s = require('../../services/events/event.service.ts');",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
    {
      filename: REPOSITORY,
      code: "import s = require('../../services/events/event.service.ts');",
      errors: [{ messageId: 'repositoryImportsService' }],
    },
  ],
});

tester.run('server-layers: only access/ compares roles or key types', rule, {
  valid: [
    // access/ is where these comparisons belong
    { filename: at('access/rules.ts'), code: 'if (actor.role === Role.ADMIN) ok();' },
    { filename: at('access/principal.ts'), code: "switch (p.kind) { case 'user': break; }" },
    // the process role and other kinds are not principals
    { filename: at('app.ts'), code: "if (config.role === 'worker') start();" },
    { filename: SERVICE, code: "if (item.kind === 'photo') show();" },
    { filename: SERVICE, code: "switch (job.kind) { case 'photo': break; }" },
    // comparing the event's key values is not asking who the caller is
    { filename: SERVICE, code: 'if (principal.event.row.id === eventId) ok();' },
    { filename: SERVICE, code: "if (input.key_value === 'x') ok();" },
    // asking access/ is the way
    { filename: SERVICE, code: 'if (rules.administersOrganisation(actor, id)) ok();' },
  ],
  invalid: [
    {
      filename: SERVICE,
      code: 'if (actor.role === Role.SUPER_USER) ok();',
      errors: [{ messageId: 'principalComparison', data: { what: 'a role' } }],
    },
    {
      filename: SERVICE,
      code: 'if (Role.EVENT_OWNER !== principal.actor.role) ok();',
      errors: [{ messageId: 'principalComparison', data: { what: 'a role' } }],
    },
    {
      filename: SERVICE,
      code: 'if (actor.role == 1) ok();',
      errors: [{ messageId: 'principalComparison', data: { what: 'a role' } }],
    },
    {
      filename: SERVICE,
      code: "if (principal.keyType === 'attendee') ok();",
      errors: [{ messageId: 'principalComparison', data: { what: 'a key type' } }],
    },
    {
      filename: SERVICE,
      code: "if (principal?.keyType !== 'robot') ok();",
      errors: [{ messageId: 'principalComparison', data: { what: 'a key type' } }],
    },
    {
      filename: SERVICE,
      code: "if (principal.kind === 'key') ok();",
      errors: [{ messageId: 'principalComparison', data: { what: 'a principal kind' } }],
    },
    {
      filename: at('routes/media.routes.ts'),
      code: "if (principal.kind !== 'user') no();",
      errors: [{ messageId: 'principalComparison', data: { what: 'a principal kind' } }],
    },
    {
      filename: SERVICE,
      code: "switch (principal.keyType) { case 'owner': break; }",
      errors: [{ messageId: 'principalComparison', data: { what: 'a key type' } }],
    },
    {
      filename: SERVICE,
      code: 'switch (actor.role) { case Role.ADMIN: break; }',
      errors: [{ messageId: 'principalComparison', data: { what: 'a role' } }],
    },
    {
      filename: SERVICE,
      code: "switch (principal.kind) { case 'user': break; default: break; }",
      errors: [{ messageId: 'principalComparison', data: { what: 'a principal kind' } }],
    },
    {
      filename: SERVICE,
      code: 'if (GATED.has(principal.keyType)) ok();',
      errors: [{ messageId: 'principalComparison', data: { what: 'a key type' } }],
    },
    {
      filename: SERVICE,
      code: 'if ([Role.ADMIN].includes(actor.role)) ok();',
      errors: [{ messageId: 'principalComparison', data: { what: 'a role' } }],
    },
  ],
});

tester.run('server-layers: only repositories, storage and db do I/O', rule, {
  valid: [
    { filename: REPOSITORY, code: "import { eq } from 'drizzle-orm';" },
    { filename: at('repositories/photos/image-engine.ts'), code: "import sharp from 'sharp';" },
    { filename: at('storage/local-storage.ts'), code: "import { rm } from 'node:fs/promises';" },
    { filename: at('db/client.ts'), code: "import { PGlite } from '@electric-sql/pglite';" },
    { filename: at('lib/data-dir-modes.ts'), code: "import { chmod } from 'node:fs/promises';" },
    { filename: at('cli/print-agent.ts'), code: "import { execFile } from 'node:child_process';" },
    { filename: at('repositories/payments/provider-http.ts'), code: 'await fetch(url);' },
    // a fetch of one's own (an injected function, an import) is not the global one
    { filename: SERVICE, code: "import { fetch } from './my-client.ts'; await fetch(url);" },
    { filename: SERVICE, code: 'const run = (fetch: F) => fetch(url);' },
    { filename: SERVICE, code: 'await deps.fetch(url);' },
    { filename: SERVICE, code: "import { x } from 'sharpen';" },
    { filename: at('jobs/job-queue.ts'), code: "import PgBoss from 'pg-boss';" },
    {
      filename: at('repositories/photos/video-engine.ts'),
      code: "const tools = require('@ffmpeg-installer/ffmpeg');",
    },
    {
      filename: at('repositories/messaging/mail/smtp.adapter.ts'),
      code: "import nodemailer from 'nodemailer';",
    },
    // `http` and `net` hold plain values and types too: those are no I/O
    { filename: at('http/client-errors.ts'), code: "import { STATUS_CODES } from 'node:http';" },
    { filename: at('http/client-errors.ts'), code: "import type { Socket } from 'node:net';" },
    { filename: at('config.ts'), code: "import { isIP } from 'node:net';" },
    { filename: SERVICE, code: "import { type Server, isIPv4 } from 'node:net';" },
    { filename: SERVICE, code: "export { STATUS_CODES } from 'node:http';" },
    { filename: SERVICE, code: "import 'node:http';" },
    // a require of one's own name, or of a computed name, says nothing
    { filename: SERVICE, code: 'const x = load.require(name);' },
  ],
  invalid: [
    ...[
      "import sharp from 'sharp';",
      "import { readFile } from 'node:fs/promises';",
      "import { existsSync } from 'fs';",
      "import { rm } from 'fs/promises';",
      "import { eq } from 'drizzle-orm';",
      "import { pgTable } from 'drizzle-orm/pg-core';",
      "import pg from 'pg';",
      "import { vector } from '@electric-sql/pglite/vector';",
      "import { execFile } from 'node:child_process';",
      "import { request } from 'undici';",
      "import type { SQL } from 'drizzle-orm';",
      "export { sql } from 'drizzle-orm';",
      "export * from 'node:fs';",
      "const sharp = await import('sharp');",
      "type Sharp = import('sharp').Sharp;",
      "const sharp = require('sharp');",
      "import sharp = require('sharp');",
      "import type { Dirent } from 'node:fs';",
      // video and processes
      "const ffmpeg = require('@ffmpeg-installer/ffmpeg');",
      "import { path as ffprobe } from '@ffprobe-installer/ffprobe';",
      "import ffmpeg from 'fluent-ffmpeg';",
      "import { spawn } from 'child_process';",
      // SQL and the job store
      "import PgBoss from 'pg-boss';",
      "import { vector } from '@electric-sql/pglite-pgvector';",
      // the network
      "import { request } from 'node:https';",
      "import { lookup } from 'node:dns/promises';",
      "import { connect } from 'node:tls';",
      "import nodemailer from 'nodemailer';",
      "import { S3Client } from '@aws-sdk/client-s3';",
      "import { request } from 'node:http';",
      "import http from 'http';",
      "import * as net from 'node:net';",
      "import { connect } from 'node:net';",
      "import { createServer as serve } from 'node:http';",
      "export * from 'node:net';",
      "const http = require('node:http');",
    ].map((code) => ({ filename: SERVICE, code, errors: [{ messageId: 'ioImport' as const }] })),
    {
      filename: at('routes/media.routes.ts'),
      code: "import { createReadStream } from 'node:fs';",
      errors: [{ messageId: 'ioImport' }],
    },
    {
      filename: at('http/rate-limit-store.ts'),
      code: "import { sql } from 'drizzle-orm';",
      errors: [{ messageId: 'ioImport' }],
    },
    { filename: SERVICE, code: 'await fetch(url);', errors: [{ messageId: 'globalFetch' }] },
    {
      filename: at('jobs/x.job.ts'),
      code: 'await globalThis.fetch(url);',
      errors: [{ messageId: 'globalFetch' }],
    },
  ],
});

describe('server-layers in the repository', () => {
  it('is an error for every server source file in the repository configuration', async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    for (const file of ['services/events/event.service.ts', 'routes/media.routes.ts', 'app.ts']) {
      const config = (await eslint.calculateConfigForFile(at(file))) as {
        rules: Record<string, unknown>;
        plugins: Record<string, { rules?: Record<string, { meta?: unknown }> }>;
      };
      expect(config.rules[RULE]).toEqual([2]);
      // ESLint loads the config natively, Vitest through Vite: two copies of the same module.
      expect(config.plugins.flashbulb?.rules?.['server-layers']?.meta).toEqual(rule.meta);
    }
  });
});
