import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { TSandboxProviders } from '../modules/funding';

type TPageAnswer = ReturnType<TSandboxProviders['pages']['show']>;

const ZChainSend = z.object({
  network: z.enum(['trc20', 'erc20']),
  address: z.string().min(1).max(100),
  /** USDT cents. */
  amount: z.number().int().positive(),
  txHash: z.string().min(1).max(100).optional(),
});

const ZBankTransfer = z.object({
  reference: z.string().max(140),
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  senderName: z.string().max(70).optional(),
  senderIban: z.string().max(42).optional(),
});

const BODY_LIMIT = 16 * 1024;

function sendPage(reply: FastifyReply, answer: TPageAnswer) {
  reply.header('cache-control', 'no-store');
  if (answer.kind === 'redirect') return reply.redirect(answer.location, 303);
  return reply
    .code(answer.status)
    .header('content-security-policy', answer.csp)
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(answer.html);
}

/**
 * The sandbox payment providers' own pages, as if they were on the provider's site:
 * - `GET /sandbox/pay/:session`: the hosted checkout (card or e-wallet) or the result of a finished one;
 * - `POST /sandbox/pay/:session`: the form's Pay or Cancel, answered with a 303 back to the broker;
 * - with `enableControls` (demo mode): `POST /sandbox/chain/send` and `POST /sandbox/bank/transfer`,
 *   JSON, simulating a wallet's USDT transfer and an incoming SEPA credit.
 * Parses its own bodies (forms and JSON as text), so it does not depend on the app's parsers.
 */
export function registerSandboxPay(app: FastifyInstance, sandbox: TSandboxProviders): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(String(body)));
        } catch {
          done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
        }
      },
    );
    scope.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      return reply.code(status).send({ error: status < 500 ? String(error.message) : 'internal error' });
    });

    scope.get<{ Params: { session: string } }>('/sandbox/pay/:session', async (request, reply) =>
      sendPage(reply, sandbox.pages.show(request.params.session)),
    );
    scope.post<{ Params: { session: string }; Body: Record<string, string> | undefined }>(
      '/sandbox/pay/:session',
      async (request, reply) =>
        sendPage(reply, sandbox.pages.submit(request.params.session, request.body ?? {})),
    );

    if (!sandbox.controlsEnabled) return;
    const control = async (reply: FastifyReply, run: () => object) => {
      try {
        return reply.code(200).send(run());
      } catch (error) {
        if (error instanceof Error && error.name === 'SandboxControlError')
          return reply.code(400).send({ error: error.message });
        throw error;
      }
    };
    scope.post('/sandbox/chain/send', async (request, reply) => {
      const input = ZChainSend.safeParse(request.body);
      if (!input.success) return reply.code(400).send({ error: z.prettifyError(input.error) });
      return control(reply, () => sandbox.controls.chainSend(input.data));
    });
    scope.post('/sandbox/bank/transfer', async (request, reply) => {
      const input = ZBankTransfer.safeParse(request.body);
      if (!input.success) return reply.code(400).send({ error: z.prettifyError(input.error) });
      return control(reply, () => sandbox.controls.bankTransfer(input.data));
    });
  });
}
