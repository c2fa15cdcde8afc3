import { invoicesQuery, invoicesReply, okReply, subscriptionInput, subscriptionReply } from '@balcao/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { type App, type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { lazyPaymentProvider } from './billing.provider.js';
import { invoiceOfTxid, settle, subscribe } from './billing.service.js';
import { listInvoices } from './invoices.service.js';
import { isSandboxProvider } from './providers/sandbox.js';

const providerParam = z.object({ provider: z.string().max(30) });
const txidParam = z.object({ txid: z.string().regex(/^[A-Za-z0-9]{1,35}$/) });

/**
 * Billing (spec part 2 §7, DOMAIN §18): every member reads the company's invoices (the super user all
 * companies'); admins pay. The provider's webhook is public but authenticated by the provider's own rule;
 * the sandbox's pay button delivers exactly such a webhook to it.
 */
export const billingRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['billing'];
  const ctx = serviceContext.bind(null, deps);
  const provider = lazyPaymentProvider(deps.config, deps.database.db);
  const settleDeps = { db: deps.database.db, realtime: deps.realtime, log: app.log };

  app.get(
    '/invoices/all',
    { onRequest: guards.auth, schema: { tags, querystring: invoicesQuery, response: { 200: invoicesReply } } },
    (request) => listInvoices(ctx(request), request.query),
  );
  app.post(
    '/subscription',
    { onRequest: guards.admin, schema: { tags, body: subscriptionInput, response: { 200: subscriptionReply } } },
    (request) => subscribe(ctx(request), provider(), request.body),
  );

  // Signatures cover the exact bytes the provider sent: in this scope only, JSON bodies stay raw.
  app.register(async (instance) => {
    const scope = instance as unknown as App;
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/webhooks/payments/:provider',
      { schema: { tags, params: providerParam, response: { 200: okReply } } },
      async (request) => {
        if (request.params.provider !== deps.config.paymentsProvider) throw new AppError('ERR_NOT_FOUND');
        const rawBody = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
        const notice = provider().verifyWebhook({
          headers: request.headers,
          query: request.query as Record<string, string | undefined>,
          rawBody,
        });
        if (!notice) throw new AppError('ERR_INVALID_CREDENTIALS', {}, 'Invalid webhook signature');
        await settle(settleDeps, provider(), notice);
        return { message: 'ok' };
      },
    );
  });

  if (deps.config.paymentsProvider === 'sandbox') {
    app.post(
      '/sandbox/payments/:txid/pay',
      { onRequest: guards.admin, schema: { tags, params: txidParam, response: { 200: okReply } } },
      async (request) => {
        const invoice = await invoiceOfTxid(ctx(request), request.params.txid);
        const sandbox = provider();
        if (!isSandboxProvider(sandbox)) throw new AppError('ERR_NOT_FOUND');
        const delivery = await sandbox.pay(invoice.chargeId as string);
        const res = await app.inject({
          method: 'POST',
          url: '/webhooks/payments/sandbox',
          headers: { ...delivery.headers, 'content-type': 'application/json' },
          payload: delivery.rawBody,
        });
        if (res.statusCode !== 200) throw new AppError('ERR_PAYMENT_PROVIDER', {}, 'The sandbox webhook was refused');
        return { message: 'paid' };
      },
    );
  }
};
