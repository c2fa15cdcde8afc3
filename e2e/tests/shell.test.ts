import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { connectedSandbox, pageApi, sandboxPhone } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login, waitForPath } from '../support/ui';

const TEST = { timeout: 90_000 };
const PHONE = { width: 390, height: 844 };

/** Fails unless the element lies wholly inside the phone's viewport (so a tap can reach it). */
async function assertOnScreen(locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const box = await locator.boundingBox();
  assert.ok(box, `${what}: not rendered`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height,
    `${what}: outside the ${PHONE.width}×${PHONE.height} screen at ${JSON.stringify(box)}`,
  );
}

/** The edit dialog of a row fills the phone's screen and its buttons are on it. */
async function assertFullScreenDialog(p: Page, modal: string, prefix: string): Promise<void> {
  const paper = p.getByTestId(modal).locator('.MuiDialog-paper');
  await paper.waitFor();
  await eventually(async () => {
    const box = await paper.boundingBox();
    assert.deepEqual(box && { width: Math.round(box.width), height: Math.round(box.height) }, {
      width: PHONE.width,
      height: PHONE.height,
    });
  });
  await assertOnScreen(p.getByTestId(`${prefix}-submit`), `${modal} submit`);
  await p.getByTestId(`${prefix}-cancel`).click();
  await p.getByTestId(modal).waitFor({ state: 'detached' });
}

/** Whether two boxes overlap. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The visible toast covers neither the top bar nor the given buttons. */
async function assertToastClear(p: Page, buttons: Locator[]): Promise<void> {
  const toast = p.locator('.Toastify__toast').first();
  await toast.waitFor();
  await eventually(async () => {
    const box = await toast.boundingBox();
    const bar = await p.getByTestId('top-bar').boundingBox();
    assert.ok(box && bar);
    assert.ok(box.y >= bar.y + bar.height, `toast ${JSON.stringify(box)} over the top bar ${JSON.stringify(bar)}`);
    for (const button of buttons) {
      const other = await button.boundingBox();
      assert.ok(other && !overlap(box, other), `toast ${JSON.stringify(box)} over a button ${JSON.stringify(other)}`);
    }
  });
}

describe('shell: connections by provider, phone-sized lists', () => {
  const suite = productSuite();

  it('a new sandbox connection offers "Iniciar" (start) and the way to the Sandbox page', TEST, () =>
    suite.page('shell-sandbox-connection', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, ADMIN);
      const api = await pageApi(suite.product, p);
      const { id } = await api.post<{ id: number }>('/whatsapp', { name: 'Sandbox Shell', provider: 'sandbox' });

      await p.goto(`${suite.web}/connections`);
      const start = p.getByTestId(`connection-first-action-${id}`);
      await expectText(start, 'Iniciar');
      assert.equal(await start.getAttribute('data-action'), 'start');
      await expectText(p.getByTestId(`connection-status-${id}`), 'Ainda não conectada');
      // The only session button: no "Tentar novamente" / "Novo QR CODE" for a connection that never ran.
      assert.equal(await p.getByTestId(`connection-session-${id}`).getByRole('button').count(), 1);

      await start.click();
      await eventually(async () => {
        const status = await p.getByTestId(`connection-status-${id}`).getAttribute('data-status');
        assert.notEqual(status, 'DISCONNECTED');
      });

      await p.getByTestId('connections-sandbox-link').click();
      await waitForPath(p, '/sandbox');
    }),
  );

  it('at 390×844 the contacts and users lists keep their row actions on screen, dialogs full-screen', TEST, () =>
    suite.page('shell-phone-lists', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, ADMIN);
      const api = await pageApi(suite.product, p);
      const contact = await api.post<{ id: number }>('/contacts', {
        name: 'Maria Aparecida dos Santos Oliveira',
        number: '5511987654321',
        email: 'maria.aparecida.oliveira@exemplo-longo.test',
      });
      const user = await api.post<{ id: number }>('/users', {
        name: 'Bruno Henrique Albuquerque',
        email: 'bruno.henrique.albuquerque@exemplo-longo.test',
        password: 'bruno-password',
        profile: 'user',
      });
      await p.setViewportSize(PHONE);

      await p.goto(`${suite.web}/contacts`);
      await assertOnScreen(p.getByTestId(`contact-edit-${contact.id}`), 'contact edit');
      await assertOnScreen(p.getByTestId(`contact-delete-${contact.id}`), 'contact delete');
      await p.getByTestId(`contact-edit-${contact.id}`).click();
      await assertFullScreenDialog(p, 'contact-modal', 'contact-modal');

      await p.goto(`${suite.web}/users`);
      await assertOnScreen(p.getByTestId(`user-edit-${user.id}`), 'user edit');
      await assertOnScreen(p.getByTestId(`user-delete-${user.id}`), 'user delete');
      await p.getByTestId(`user-edit-${user.id}`).click();
      await assertFullScreenDialog(p, 'user-modal', 'user-modal');

      // A refused save: the toast leaves the top bar and the dialog's buttons free, the field is marked.
      await p.getByTestId('users-add').click();
      await p.getByTestId('user-name').fill('Outra Pessoa');
      await p.getByTestId('user-email').fill(ADMIN.email);
      await p.getByTestId('user-password').fill('outra-password');
      await p.getByTestId('user-modal-submit').click();
      await assertToastClear(p, [p.getByTestId('user-modal-submit'), p.getByTestId('user-modal-cancel')]);
      assert.equal(await p.getByTestId('user-email').getAttribute('aria-invalid'), 'true');
    }),
  );

  it('at 390×844 the chat keeps the contact name readable and its actions on screen', TEST, () =>
    suite.page('shell-phone-chat', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, ADMIN);
      const api = await pageApi(suite.product, p);
      const whatsappId = await connectedSandbox(api, 'Sandbox Phone', []);
      const name = 'Maria Aparecida dos Santos';
      const number = '5511987650001';
      await sandboxPhone(api, whatsappId).inbound({ number, name, body: 'Bom dia!' });
      const { tickets } = await api.get<{ tickets: { uuid: string }[] }>(`/tickets?searchParam=${number}`);
      await p.setViewportSize(PHONE);

      await p.goto(`${suite.web}/tickets/${tickets[0].uuid}`);
      const contactName = p.getByTestId('ticket-contact-name');
      await expectText(contactName, name);
      // Not cut: the whole name fits its box (on two lines if need be).
      const whole = (el: HTMLElement) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight;
      assert.ok(await contactName.evaluate(whole), 'the contact name is cut');
      await assertOnScreen(p.getByTestId('accept-button'), 'accept');
      await assertOnScreen(p.getByTestId('ticket-options-button'), 'ticket options');
      await p.getByTestId('accept-button').click();
      await assertOnScreen(p.getByTestId('resolve-button'), 'resolve');
      // The other actions moved into the options menu.
      await p.getByTestId('ticket-options-button').click();
      await assertOnScreen(p.getByTestId('return-button'), 'return to pending');
      await p.keyboard.press('Escape');
      assert.ok(await contactName.evaluate(whole), 'the contact name is cut');
    }),
  );
});
