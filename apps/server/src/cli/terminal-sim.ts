import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A payment terminal simulator (`npm run cli -- terminal-sim --port N`): the
 * terminal API of albums spec §7.3 for venues testing without hardware, and for the tests.
 * - `POST /fcc/pay` with the §3 body → `{data: {requestId, status: 'PENDING'}}`; a missing or
 *   malformed field is 400 `{message, code: 'INVALID_REQUEST'}`.
 * - `POST /fcc/check-status {requestId}` → `{data: {requestId, status, ErrorCode, Message,
 *   amount}}`; unknown id 404 `{message, code: 'NOT_FOUND'}`.
 * - `POST /fcc/cancel {requestId}` → `{data: {requestId, status: 'CANCELLED'}}`; a finished sale
 *   409 `{message, code: 'ALREADY_FINISHED'}`.
 * What the "card" does is the outcome in force when the sale starts: `approve` (APPROVED,
 * ErrorCode 0), `decline` (DECLINED, ErrorCode 51 "Insufficient funds"), `timeout` (stays PENDING
 * until `POST /sim/resolve {requestId, outcome}` decides it later). `POST /sim/outcome {outcome}`
 * sets it for the next sales; `GET /sim/requests` lists what the terminal was sent.
 */

export type TerminalOutcome = 'approve' | 'decline' | 'timeout';
const OUTCOMES: readonly TerminalOutcome[] = ['approve', 'decline', 'timeout'];

interface Sale {
  requestId: string;
  body: Record<string, unknown>;
  status: 'PENDING' | 'APPROVED' | 'DECLINED' | 'CANCELLED';
  ErrorCode: string;
  Message: string;
}

const FIELDS = [
  'amount',
  'taxAmount',
  'storeId',
  'terminalId',
  'laneId',
  'invoiceNumber',
  'merchantReferenceCode',
  'clientEnvironment',
  'currency',
] as const;

const finish = (sale: Sale, outcome: TerminalOutcome) => {
  if (outcome === 'approve')
    Object.assign(sale, { status: 'APPROVED', ErrorCode: '0', Message: 'Approved' });
  if (outcome === 'decline')
    Object.assign(sale, { status: 'DECLINED', ErrorCode: '51', Message: 'Insufficient funds' });
};

export const startTerminalSim = async (
  options: { port?: number; host?: string; outcome?: TerminalOutcome } = {},
) => {
  let outcome: TerminalOutcome = options.outcome ?? 'approve';
  const sales = new Map<string, Sale>();
  const requests: { path: string; body: Record<string, unknown> }[] = [];

  const reply = (response: ServerResponse, status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const error = (response: ServerResponse, status: number, code: string, message: string) =>
    reply(response, status, { message, code });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '').split('?')[0]!;
    if (request.method === 'GET' && path === '/sim/requests')
      return reply(response, 200, { requests });
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return error(response, 400, 'INVALID_JSON', 'The body is not a JSON object');
    }
    if (request.method !== 'POST') return error(response, 405, 'METHOD_NOT_ALLOWED', 'POST only');
    requests.push({ path, body });
    const sale = typeof body.requestId === 'string' ? sales.get(body.requestId) : undefined;
    switch (path) {
      case '/fcc/pay': {
        for (const field of FIELDS)
          if (typeof body[field] !== 'string')
            return error(response, 400, 'INVALID_REQUEST', `${field} is required`);
        // The currency's own decimals: `15.50` EUR, `1550` JPY, `1.250` KWD.
        if (!/^\d+(\.\d{1,3})?$/.test(body.amount as string) || Number(body.amount) <= 0)
          return error(response, 400, 'INVALID_AMOUNT', 'amount must be a positive decimal');
        if (!Array.isArray(body.items))
          return error(response, 400, 'INVALID_REQUEST', 'items is required');
        const created: Sale = {
          requestId: randomUUID(),
          body,
          status: 'PENDING',
          ErrorCode: '',
          Message: 'Waiting for card',
        };
        if (outcome !== 'timeout') finish(created, outcome);
        sales.set(created.requestId, created);
        return reply(response, 200, { data: { requestId: created.requestId, status: 'PENDING' } });
      }
      case '/fcc/check-status':
        if (!sale) return error(response, 404, 'NOT_FOUND', 'Unknown requestId');
        return reply(response, 200, {
          data: {
            requestId: sale.requestId,
            status: sale.status,
            ErrorCode: sale.ErrorCode,
            Message: sale.Message,
            amount: sale.body.amount,
          },
        });
      case '/fcc/cancel':
        if (!sale) return error(response, 404, 'NOT_FOUND', 'Unknown requestId');
        if (sale.status !== 'PENDING' && sale.status !== 'CANCELLED')
          return error(response, 409, 'ALREADY_FINISHED', `The sale is ${sale.status}`);
        Object.assign(sale, { status: 'CANCELLED', Message: 'Cancelled' });
        return reply(response, 200, { data: { requestId: sale.requestId, status: sale.status } });
      case '/sim/outcome':
        if (!OUTCOMES.includes(body.outcome as TerminalOutcome))
          return error(
            response,
            400,
            'INVALID_OUTCOME',
            `outcome is one of ${OUTCOMES.join(', ')}`,
          );
        outcome = body.outcome as TerminalOutcome;
        return reply(response, 200, { data: { outcome } });
      case '/sim/resolve':
        if (!sale) return error(response, 404, 'NOT_FOUND', 'Unknown requestId');
        if (body.outcome !== 'approve' && body.outcome !== 'decline')
          return error(response, 400, 'INVALID_OUTCOME', 'outcome is approve or decline');
        if (sale.status !== 'PENDING')
          return error(response, 409, 'ALREADY_FINISHED', `The sale is ${sale.status}`);
        finish(sale, body.outcome);
        return reply(response, 200, { data: { requestId: sale.requestId, status: sale.status } });
      default:
        return error(response, 404, 'NOT_FOUND', `No route ${path}`);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => error(response, 500, 'INTERNAL', 'Simulator error'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    sales,
    requests,
    setOutcome(next: TerminalOutcome) {
      outcome = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type TerminalSim = Awaited<ReturnType<typeof startTerminalSim>>;
