import type { Invoice, SubscriptionReply } from '@balcao/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMercadoPago, startFakeMercadoPago } from '../../../test/fakes/mercadopago.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  login,
  recordEvents,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { companies } from '../companies/companies.schema.js';
import { invoices, sandboxCharges } from './billing.schema.js';
import { addMonths, reconcile } from './billing.service.js';
import { issueInvoices } from './invoices.service.js';
import { sandboxWebhook } from './providers/sandbox.js';

/** Billing (DOMAIN §18) on the sandbox provider, then on Mercado Pago's API (a local fake). */

const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const today = () => dayFrom(0);

const checkout = (invoiceId: number, extra: Record<string, unknown> = {}) => ({
  firstName: 'Rosa',
  lastName: 'Padeira',
  address2: 'Rua das Flores, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01000-000',
  country: 'BR',
  nameOnCard: 'ROSA PADEIRA',
  cardNumber: '4111111111111111',
  cvv: '123',
  invoiceId,
  ...extra,
});

function caller(server: TestServer) {
  return (session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    server.app.inject({ method, url, payload, headers: session.headers });
}

async function dueDateOf(server: TestServer, companyId: number): Promise<string | null> {
  const [row] = await server.deps.database.db
    .select({ dueDate: companies.dueDate })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row.dueDate;
}

/** The sandbox charge of a checkout, paid by the phone with `amount` (before its webhook is delivered). */
async function payCharge(server: TestServer, txid: string, amount: number): Promise<string> {
  const [charge] = await server.deps.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.txid, txid));
  await server.deps.database.db
    .update(sandboxCharges)
    .set({ paidAmount: amount, paidAt: new Date() })
    .where(eq(sandboxCharges.chargeId, charge.chargeId));
  return charge.chargeId;
}

/** A notice delivered to the sandbox provider's webhook as it was signed (or not). */
const deliverNotice = (server: TestServer, notice: { headers: Record<string, string>; rawBody: string }) =>
  server.app.inject({
    method: 'POST',
    url: '/webhooks/payments/sandbox',
    headers: { ...notice.headers, 'content-type': 'application/json' },
    payload: notice.rawBody,
  });

describe('billing on the sandbox provider', () => {
  let server: TestServer;
  let call: ReturnType<typeof caller>;
  let t: Tenant;
  let other: Tenant;
  const secret = 'sandbox-webhook-secret-for-tests';

  beforeAll(async () => {
    server = await createTestServer({ LOGIN_LIMIT_IP: '1000', SANDBOX_PAYMENTS_SECRET: secret });
    await server.listen();
    call = caller(server);
    t = await createTenant(server, { plan: { value: 149.9 }, dueDate: dayFrom(5) });
    other = await createTenant(server, { plan: { value: 79.9 }, dueDate: dayFrom(3) });
  });
  afterAll(() => server.close());

  async function openInvoice(tenant: Tenant): Promise<Invoice> {
    const res = await call(tenant.user, 'GET', '/invoices/all?pageNumber=1');
    expect(res.statusCode, res.body).toBe(200);
    const open = (res.json().invoices as Invoice[]).find((i) => i.status === 'open');
    expect(open).toBeDefined();
    return open as Invoice;
  }

  it('issues one invoice per period at the plan’s value, however often the job runs', async () => {
    const invoice = await openInvoice(t);
    expect(invoice).toMatchObject({ companyId: t.companyId, value: 149.9, dueDate: dayFrom(5), status: 'open' });
    await Promise.all([issueInvoices(server.deps.database.db), issueInvoices(server.deps.database.db)]);
    await issueInvoices(server.deps.database.db);
    const rows = await server.deps.database.db.select().from(invoices).where(eq(invoices.companyId, t.companyId));
    expect(rows).toHaveLength(1);
    // A due date further than the issuing window: nothing yet.
    const later = await createTenant(server, { plan: { value: 10 }, dueDate: dayFrom(40) });
    expect((await call(later.admin, 'GET', '/invoices/all')).json().invoices).toEqual([]);
  });

  it('charges the invoice’s value whatever price the browser sends, and never stores the card', async () => {
    const invoice = await openInvoice(t);
    const res = await call(
      t.admin,
      'POST',
      '/subscription',
      checkout(invoice.id, { price: 0.01, plan: { value: 0.01 } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as SubscriptionReply;
    expect(reply.valor.original).toBe('149.90');
    expect(reply.sandbox).toBe(true);
    expect(reply.copyPaste).toMatch(/^000201/);
    expect(reply.qrcode.qrcode).toBe(reply.copyPaste);
    const [charge] = await server.deps.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.txid, reply.txid));
    expect(charge.amount).toBe(149.9);
    const [company] = await server.deps.database.db.select().from(companies).where(eq(companies.id, t.companyId));
    expect(company).toMatchObject({
      billingName: 'Rosa Padeira',
      addressCity: 'São Paulo',
      addressZipCode: '01000-000',
    });
    const dump = JSON.stringify(await server.deps.database.db.execute(sql`select * from companies, invoices`));
    expect(dump).not.toContain('4111111111111111');
    // The same checkout again reuses the live charge.
    const again = (await call(t.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    expect(again.txid).toBe(reply.txid);
  });

  it('refuses what the checkout must have, in the spec’s words, and plain users', async () => {
    const invoice = await openInvoice(t);
    const res = await call(
      t.admin,
      'POST',
      '/subscription',
      checkout(invoice.id, { firstName: '', city: ' ', country: 'AR' }),
    );
    expect(res.statusCode).toBe(400);
    const messages = (res.json().fields as { message: string }[]).map((f) => f.message);
    expect(messages).toEqual(
      expect.arrayContaining(['O nome completo é obrigatório', 'Cidade é obrigatória', 'País é obrigatório']),
    );
    expect((await call(t.user, 'POST', '/subscription', checkout(invoice.id))).statusCode).toBe(403);
  });

  it('the sandbox pays like a provider: a signed webhook settles once, the due date moves, the company hears CONCLUIDA', async () => {
    const tenant = await createTenant(server, { plan: { value: 59.9 }, dueDate: dayFrom(2) });
    const invoice = await openInvoice(tenant);
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    const mine = await connectSocket(server, tenant.user.token);
    const theirs = await connectSocket(server, other.admin.token);
    try {
      const heard = recordEvents(mine);
      const overheard = recordEvents(theirs);
      // Another company's admin cannot pay it.
      expect((await call(other.admin, 'POST', `/sandbox/payments/${reply.txid}/pay`)).statusCode).toBe(404);
      const paid = await call(tenant.admin, 'POST', `/sandbox/payments/${reply.txid}/pay`);
      expect(paid.statusCode, paid.body).toBe(200);
      const expected = addMonths(dayFrom(2), 1);
      expect(await dueDateOf(server, tenant.companyId)).toBe(expected);
      const event = await waitUntil(
        async () => heard.find((e) => e.event === `company-${tenant.companyId}-payment`),
        (e) => e !== undefined,
      );
      expect(event?.payload).toEqual({
        action: 'CONCLUIDA',
        company: { id: tenant.companyId, dueDate: expected },
        invoiceId: invoice.id,
      });
      expect(overheard.filter((e) => e.event.endsWith('-payment'))).toEqual([]);
      const [row] = await server.deps.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(row.status).toBe('paid');
      // Paid: no second checkout.
      expect((await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json().error).toBe(
        'ERR_INVOICE_PAID',
      );
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('an unsigned, wrongly signed or replayed webhook changes nothing; one event delivered five times extends once', async () => {
    const tenant = await createTenant(server, { plan: { value: 30 }, dueDate: dayFrom(1) });
    const invoice = await openInvoice(tenant);
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    const chargeId = await payCharge(server, reply.txid, 30);
    const deliver = (headers: Record<string, string>, rawBody: string) => deliverNotice(server, { headers, rawBody });
    const genuine = sandboxWebhook(secret, { eventId: 'evt_same_0001', chargeId });
    expect((await deliver({}, genuine.rawBody)).statusCode).toBe(401);
    const forged = sandboxWebhook('not-the-secret', { eventId: 'evt_forged_01', chargeId });
    expect((await deliver(forged.headers, forged.rawBody)).statusCode).toBe(401);
    expect((await deliver(genuine.headers, `${genuine.rawBody} `)).statusCode).toBe(401);
    expect(await dueDateOf(server, tenant.companyId)).toBe(dayFrom(1));

    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(genuine.headers, genuine.rawBody)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await dueDateOf(server, tenant.companyId)).toBe(addMonths(dayFrom(1), 1));
    // Another event about the same paid charge is a no-op too.
    const later = sandboxWebhook(secret, { eventId: 'evt_other_0002', chargeId });
    await deliver(later.headers, later.rawBody);
    expect(await dueDateOf(server, tenant.companyId)).toBe(addMonths(dayFrom(1), 1));
  });

  it('a payment below the invoice’s value does not settle it', async () => {
    const tenant = await createTenant(server, { plan: { value: 100 }, dueDate: dayFrom(4) });
    const invoice = await openInvoice(tenant);
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    const chargeId = await payCharge(server, reply.txid, 99.99);
    await deliverNotice(server, sandboxWebhook(secret, { eventId: 'evt_under_001', chargeId }));
    const [row] = await server.deps.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row.status).toBe('open');
    expect(await dueDateOf(server, tenant.companyId)).toBe(dayFrom(4));
  });

  it('extends by the recurrence’s months, from today when already overdue', async () => {
    for (const [recurrence, months] of [
      ['BIMESTRAL', 2],
      ['TRIMESTRAL', 3],
      ['SEMESTRAL', 6],
      ['ANUAL', 12],
    ] as const) {
      const tenant = await createTenant(server, { plan: { value: 20 }, dueDate: dayFrom(5) });
      const invoice = await openInvoice(tenant);
      const reply = (
        await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))
      ).json() as SubscriptionReply;
      // Then the due date passes (its admin can no longer log in): the super user pays its sandbox charge.
      await server.deps.database.db
        .update(companies)
        .set({ recurrence, dueDate: dayFrom(-3) })
        .where(eq(companies.id, tenant.companyId));
      // (A login of the super user's own: creating a tenant logs it in anew, which ends older sessions.)
      const su = await login(server, SUPER.email, SUPER.password);
      const paid = await call(su, 'POST', `/sandbox/payments/${reply.txid}/pay`);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(await dueDateOf(server, tenant.companyId)).toBe(addMonths(today(), months));
    }
  });

  it('settles a paid charge whose webhook was lost, by reconciliation', async () => {
    const tenant = await createTenant(server, { plan: { value: 45 }, dueDate: dayFrom(6) });
    const invoice = await openInvoice(tenant);
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    await server.deps.database.db
      .update(sandboxCharges)
      .set({ paidAmount: 45, paidAt: new Date() })
      .where(eq(sandboxCharges.txid, reply.txid));
    const { lazyPaymentProvider } = await import('./billing.provider.js');
    const provider = lazyPaymentProvider(server.deps.config, server.deps.database.db)();
    const deps = { db: server.deps.database.db, realtime: server.deps.realtime, log: { info() {}, warn() {} } };
    expect(await reconcile(deps, provider)).toBeGreaterThanOrEqual(1);
    expect(await dueDateOf(server, tenant.companyId)).toBe(addMonths(dayFrom(6), 1));
    expect(await reconcile(deps, provider)).toBe(0);
  });

  it('re-issues the open invoice when the plan’s value changes, dropping its old charge', async () => {
    const tenant = await createTenant(server, { plan: { value: 50 }, dueDate: dayFrom(7) });
    const invoice = await openInvoice(tenant);
    await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id));
    const su = await login(server, SUPER.email, SUPER.password);
    const company = (await call(su, 'GET', `/companies/${tenant.companyId}`)).json();
    expect((await call(su, 'PUT', `/plans/${company.planId}`, { value: 75.5 })).statusCode).toBe(200);
    await issueInvoices(server.deps.database.db);
    const [row] = await server.deps.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row).toMatchObject({ value: 75.5, txid: null, chargeId: null });
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    expect(reply.valor.original).toBe('75.50');
  });

  it('never shows nor charges another company’s invoice; the super user sees every company’s', async () => {
    const mine = await openInvoice(t);
    const theirs = await openInvoice(other);
    const list = (await call(t.admin, 'GET', '/invoices/all')).json().invoices as Invoice[];
    expect(list.map((i) => i.id)).toContain(mine.id);
    expect(list.map((i) => i.id)).not.toContain(theirs.id);
    const res = await call(t.admin, 'POST', '/subscription', checkout(theirs.id));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_INVOICE_FOUND');
    const su = await login(server, SUPER.email, SUPER.password);
    let all: Invoice[] = [];
    for (let page = 1; ; page++) {
      const body = (await call(su, 'GET', `/invoices/all?pageNumber=${page}`)).json();
      all = all.concat(body.invoices);
      if (!body.hasMore) break;
    }
    expect(all.map((i) => i.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });
});

describe('billing on Mercado Pago (local fake)', () => {
  let fake: FakeMercadoPago;
  let server: TestServer;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    fake = await startFakeMercadoPago();
    server = await createTestServer({
      LOGIN_LIMIT_IP: '1000',
      PAYMENTS_PROVIDER: 'mercadopago',
      MERCADOPAGO_BASE_URL: fake.url,
      MERCADOPAGO_ACCESS_TOKEN: fake.accessToken,
      MERCADOPAGO_WEBHOOK_SECRET: fake.webhookSecret,
    });
    call = caller(server);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const deliver = (d: { query: Record<string, string>; headers: Record<string, string>; rawBody: string }) =>
    server.app.inject({
      method: 'POST',
      url: `/webhooks/payments/mercadopago?${new URLSearchParams(d.query)}`,
      headers: { ...d.headers, 'content-type': 'application/json' },
      payload: d.rawBody,
    });

  it('creates the Pix payment for the invoice’s value under our txid, and settles on its signed webhook only', async () => {
    const tenant = await createTenant(server, { plan: { value: 120 }, dueDate: dayFrom(3) });
    const [invoice] = (await call(tenant.admin, 'GET', '/invoices/all')).json().invoices as Invoice[];
    const reply = (
      await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id, { price: 1 }))
    ).json() as SubscriptionReply;
    expect(reply.sandbox).toBe(false);
    const created = fake.requests.find((r) => r.method === 'POST');
    expect(created?.headers['x-idempotency-key']).toBe(reply.txid);
    expect(created?.body).toMatchObject({
      transaction_amount: 120,
      payment_method_id: 'pix',
      external_reference: reply.txid,
    });
    expect(created?.headers.authorization).toBe(`Bearer ${fake.accessToken}`);
    const paymentId = [...fake.payments.values()].find((p) => p.external_reference === reply.txid)?.id as number;

    // Signed, but the payment is not approved yet: nothing happens.
    expect((await deliver(fake.webhook(paymentId))).statusCode).toBe(200);
    expect(await dueDateOf(server, tenant.companyId)).toBe(dayFrom(3));
    fake.approve(paymentId);
    for (const signature of ['none', 'wrong', 'stale'] as const) {
      expect((await deliver(fake.webhook(paymentId, { signature }))).statusCode).toBe(401);
    }
    expect(await dueDateOf(server, tenant.companyId)).toBe(dayFrom(3));
    const genuine = fake.webhook(paymentId);
    for (let i = 0; i < 5; i++) expect((await deliver(genuine)).statusCode).toBe(200);
    expect(await dueDateOf(server, tenant.companyId)).toBe(addMonths(dayFrom(3), 1));
  });

  it('an approved payment of less than the invoice does not settle it', async () => {
    const tenant = await createTenant(server, { plan: { value: 200 }, dueDate: dayFrom(3) });
    const [invoice] = (await call(tenant.admin, 'GET', '/invoices/all')).json().invoices as Invoice[];
    const reply = (await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id))).json() as SubscriptionReply;
    const paymentId = [...fake.payments.values()].find((p) => p.external_reference === reply.txid)?.id as number;
    fake.approve(paymentId, 150);
    expect((await deliver(fake.webhook(paymentId))).statusCode).toBe(200);
    expect(await dueDateOf(server, tenant.companyId)).toBe(dayFrom(3));
  });

  it('a provider that fails answers ERR_PAYMENT_PROVIDER, not a 500', async () => {
    const tenant = await createTenant(server, { plan: { value: 10 }, dueDate: dayFrom(3) });
    const [invoice] = (await call(tenant.admin, 'GET', '/invoices/all')).json().invoices as Invoice[];
    fake.script({ status: 500 }, { status: 500 }, { status: 500 });
    const res = await call(tenant.admin, 'POST', '/subscription', checkout(invoice.id));
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('ERR_PAYMENT_PROVIDER');
    expect(res.body).not.toContain(fake.accessToken);
  });
});

describe('addMonths', () => {
  it('keeps the day, clamped to the month’s end', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 2)).toBe('2027-01-15');
    expect(addMonths('2026-05-10', 12)).toBe('2027-05-10');
  });
});
