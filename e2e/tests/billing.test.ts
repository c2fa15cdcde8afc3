import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Api, api, apiLogin, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login } from '../support/ui';

const TEST = { timeout: 150_000 };
/** The live payment, the toast and the 4 s redirect, on a busy machine. */
const PAYMENT_TIMEOUT_MS = 30_000;

const PLAN = { name: 'Plano Fatura Pix', users: 5, connections: 2, queues: 3, value: 89.9 };
const COMPANY = {
  name: 'Floricultura Ipê Roxo',
  email: 'dona@iperoxo.test',
  adminName: 'Iracema Florista',
  password: 'ipe-roxo-secret',
};
const BILLING = {
  firstName: 'Iracema',
  lastName: 'Florista',
  address2: 'Rua das Flores, 120',
  city: 'Curitiba',
  state: 'PR',
  zipcode: '80010-000',
};

const DAY_MS = 86_400_000;

/** `yyyy-mm-dd` of today plus `days` (UTC; five days ahead is ahead in any time zone). */
const isoInDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** `yyyy-mm-dd` plus one month, clamped to the month's last day. */
function plusOneMonth(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  const target = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

const ddMMyyyy = (iso: string) => iso.split('-').reverse().join('/');

interface Invoice {
  id: number;
  companyId: number;
  value: number;
  dueDate: string;
  status: string;
}

const invoicesOf = async (superApi: Api, companyId: number) =>
  (await superApi.get<{ invoices: Invoice[] }>('/invoices/all')).invoices.filter((i) => i.companyId === companyId);

describe('billing: a company admin pays the open invoice with Pix at /financeiro', () => {
  const suite = productSuite();

  it('Dados, Personalizar, Revisar, the Pix screen, the sandbox payment, the toast and the redirect home', TEST, () =>
    suite.page('billing-pix-checkout', async (page) => {
      assert.ok(suite.product);
      const product = suite.product;

      // The super user sets up a plan and a company on it, due in five days, with its admin.
      const superApi = api(product, await apiLogin(product, ADMIN));
      const plan = await superApi.post<{ id: number }>('/plans', PLAN);
      const dueDate = isoInDays(5);
      const company = await superApi.post<{ id: number; dueDate: string }>('/companies', {
        name: COMPANY.name,
        email: COMPANY.email,
        planId: plan.id,
        dueDate,
        recurrence: 'MENSAL',
        adminName: COMPANY.adminName,
        password: COMPANY.password,
      });
      assert.equal(company.dueDate, dueDate);
      const newDueDate = plusOneMonth(dueDate);

      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.web });
      await login(page, suite.web, { email: COMPANY.email, password: COMPANY.password });

      // The invoice of the coming due date is issued when the list is read.
      await page.goto(`${suite.web}/financeiro`);
      const row = page.locator('[data-testid^="financeiro-row-"]');
      await row.first().waitFor({ timeout: PAYMENT_TIMEOUT_MS });
      assert.equal(await row.count(), 1);
      const invoiceId = Number(((await row.getAttribute('data-testid')) ?? '').replace('financeiro-row-', ''));
      assert.ok(invoiceId > 0, 'the invoice row names its id');
      await expectText(page.getByTestId(`financeiro-status-${invoiceId}`), 'Em Aberto');
      await expectText(page.getByTestId(`financeiro-value-${invoiceId}`), 'R$ 89,90');
      await expectText(page.getByTestId(`financeiro-due-${invoiceId}`), ddMMyyyy(dueDate));
      const [issued] = await invoicesOf(superApi, company.id);
      assert.equal(issued?.id, invoiceId);
      assert.equal(issued.status, 'open');
      assert.equal(issued.dueDate, dueDate);

      await page.getByTestId(`financeiro-pay-${invoiceId}`).click();
      const form = page.getByTestId('checkout-form');
      await form.waitFor();
      assert.equal(await form.getAttribute('data-step'), 'data');

      // Dados: an empty submit is refused with the spec's message.
      await page.getByTestId('checkout-next').click();
      await page.getByTestId('checkout-dialog').getByText('O nome completo é obrigatório').waitFor();
      assert.equal(await form.getAttribute('data-step'), 'data');

      for (const [field, value] of Object.entries(BILLING)) await page.getByTestId(`checkout-${field}`).fill(value);
      await page.locator('[data-testid=checkout-country] [role=combobox]').click();
      await page.getByTestId('checkout-country-BR').click();
      await expectText(page.locator('[data-testid=checkout-country] [role=combobox]'), 'Brasil');
      await page.getByTestId('checkout-next').click();

      // Personalizar: the company's plan.
      await eventually(async () => assert.equal(await form.getAttribute('data-step'), 'customize'));
      await page.getByTestId(`checkout-plan-${plan.id}`).check();
      await page.getByTestId('checkout-next').click();

      // Revisar: who pays, where, and the invoice's total.
      await eventually(async () => assert.equal(await form.getAttribute('data-step'), 'review'));
      await expectText(page.getByTestId('checkout-review-name'), `${BILLING.firstName} ${BILLING.lastName}`);
      await expectText(
        page.getByTestId('checkout-review-address'),
        `${BILLING.address2}, ${BILLING.city}, ${BILLING.state}, ${BILLING.zipcode}, Brasil`,
      );
      await expectText(page.getByTestId('checkout-review-total'), 'R$ 89,90');
      await page.getByTestId('checkout-submit').click();

      // The Pix screen: the QR image and the copy-and-paste code for the invoice's amount.
      await page.getByTestId('checkout-pix').waitFor({ timeout: PAYMENT_TIMEOUT_MS });
      assert.equal(await form.getAttribute('data-step'), 'pix');
      await expectText(page.getByTestId('checkout-pix-value'), 'R$ 89,90');
      const qr = page.getByTestId('checkout-pix-qr');
      await qr.waitFor();
      assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      const code = ((await page.getByTestId('checkout-pix-code').textContent()) ?? '').trim();
      assert.ok(code.startsWith('000201'), `a Pix copy-and-paste code, got ${JSON.stringify(code)}`);
      assert.ok(code.includes('89.90'), `the code carries the amount 89.90: ${code}`);

      // Copy: "Copiado!" for a second, and the code is on the clipboard.
      const copy = page.getByTestId('checkout-copy');
      await copy.click();
      await expectText(copy, 'Copiado!');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
      await expectText(copy, 'Copiar código');

      // Pay in the sandbox: the live CONCLUIDA brings the toast with the new due date.
      await page.getByTestId('checkout-sandbox-pay').click();
      const toast = page
        .locator('.Toastify__toast')
        .filter({ hasText: `Pagamento confirmado! Sua licença foi renovada até ${ddMMyyyy(newDueDate)}.` });
      await toast.first().waitFor({ timeout: PAYMENT_TIMEOUT_MS });
      const paidAt = Date.now();
      assert.equal(new URL(page.url()).pathname, '/financeiro');
      await page
        .getByTestId('checkout-paid')
        .filter({ hasText: ddMMyyyy(newDueDate) })
        .waitFor();

      // Then, after a few seconds, the dashboard.
      await until(
        'the redirect to the dashboard',
        async () => (await page.evaluate(() => window.location.pathname)) === '/',
        PAYMENT_TIMEOUT_MS,
      );
      const waited = Date.now() - paidAt;
      assert.ok(waited >= 2_000, `redirected ${waited} ms after the toast, expected about 4 s`);
      await page.getByTestId('card-pending').waitFor({ timeout: PAYMENT_TIMEOUT_MS });

      // Settled once: the invoice paid and the company's licence a month longer.
      const [paid] = await invoicesOf(superApi, company.id);
      assert.equal(paid?.id, invoiceId);
      assert.equal(paid.status, 'paid');
      const after = await superApi.get<{ dueDate: string }>(`/companies/${company.id}`);
      assert.equal(after.dueDate, newDueDate);
    }),
  );
});
