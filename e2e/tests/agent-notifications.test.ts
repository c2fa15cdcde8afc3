import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Api, api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { countSounds, eventually, expectText, login, soundsPlayed, waitForPath } from '../support/ui';

const TEST = { timeout: 60_000 };

/** Agents of the two queues of the menu: 1 Suporte, 2 Financeiro. */
const SUPPORT_AGENT = { name: 'Sara Suporte', email: 'sara.suporte@balcao.test', password: 'sara-secret' };
const BILLING_AGENT = { name: 'Fabio Financeiro', email: 'fabio.financeiro@balcao.test', password: 'fabio-secret' };

interface TicketRow {
  id: number;
  uuid: string;
  status: 'open' | 'pending' | 'closed';
  queueId: number | null;
  contact: { number: string };
}

/** The OS notifications the page created, recorded by `captureNotifications`. */
interface Notice {
  title: string;
  body: string;
}

/**
 * Grants the notification permission and records every `new Notification(…)` of the page in
 * `window.__notices` (the instances in `window.__noticeObjects`, to click them).
 */
async function captureNotifications(page: Page): Promise<void> {
  await page.context().grantPermissions(['notifications']);
  // A string, not a function: the test runner's transpiler would name the class with a helper
  // that does not exist in the page.
  await page.addInitScript({
    content: `
      window.__notices = [];
      window.__noticeObjects = [];
      window.Notification = new Proxy(window.Notification, {
        construct(Original, args) {
          const notice = new Original(...args);
          window.__notices.push({ title: args[0], body: (args[1] && args[1].body) || '' });
          window.__noticeObjects.push(notice);
          return notice;
        },
      });
    `,
  });
}

function notices(page: Page): Promise<Notice[]> {
  return page.evaluate(() => (window as unknown as { __notices?: Notice[] }).__notices ?? []);
}

describe('agent notifications: nothing missed while a ticket was out of view, new tickets announced', () => {
  let admin: Api | undefined;
  const setup = { support: 0, billing: 0, whatsappId: 0, supportAgent: 0, billingAgent: 0 };

  const suite = productSuite(async (started) => {
    // The admin never logs in in the browser here, so this API session stays valid.
    admin = api(started, await apiLogin(started, ADMIN));
    const support = await admin.post<{ id: number }>('/queue', { name: 'Suporte', color: '#2E7D32' });
    const billing = await admin.post<{ id: number }>('/queue', { name: 'Financeiro', color: '#C62828' });
    setup.supportAgent = (
      await admin.post<{ id: number }>('/users', { ...SUPPORT_AGENT, profile: 'user', queueIds: [support.id] })
    ).id;
    setup.billingAgent = (
      await admin.post<{ id: number }>('/users', { ...BILLING_AGENT, profile: 'user', queueIds: [billing.id] })
    ).id;
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox Menu', [support.id]);
    // Two queues: a contact without a queue gets the menu and picks one by its number.
    await admin.put(`/whatsapp/${setup.whatsappId}`, {
      greetingMessage: 'Olá! Escolha uma opção:',
      queueIds: [support.id, billing.id],
    });
    setup.support = support.id;
    setup.billing = billing.id;
  });

  function phone() {
    assert.ok(admin);
    return sandboxPhone(admin, setup.whatsappId);
  }

  async function ticketOf(number: string, match: (t: TicketRow) => boolean): Promise<TicketRow> {
    assert.ok(admin);
    const as = admin;
    return until(`the ticket of ${number}`, async () => {
      const { tickets } = await as.get<{ tickets: TicketRow[] }>(`/tickets?showAll=true&searchParam=${number}`);
      return tickets.find((t) => t.contact.number === number && match(t));
    });
  }

  /** The agent's page is live: its socket connected (the server counts the agent online). */
  async function online(userId: number): Promise<void> {
    assert.ok(admin);
    const as = admin;
    await until(`user ${userId} online`, async () => (await as.get<{ online: boolean }>(`/users/${userId}`)).online);
  }

  /** The contact answers the queue menu once it reached the phone. */
  async function answerMenu(contact: { number: string; name: string }, choice: string): Promise<void> {
    await phone().received(contact.number, 'the queue menu', (m) => m.body.includes('Financeiro'));
    await phone().inbound({ ...contact, body: choice });
  }

  it('the open chat shows what the contact wrote while the ticket had no queue', TEST, () =>
    suite.page('missed-messages', async (p) => {
      assert.ok(suite.product && admin);
      const contact = { number: '5511944440001', name: 'Helena Cliente' };
      await login(p, suite.web, SUPPORT_AGENT);
      await online(setup.supportAgent);
      const agent = await pageApi(suite.product, p);
      const { id: contactId } = await agent.post<{ id: number }>('/contacts', contact);
      const ticket = await agent.post<TicketRow>('/tickets', { contactId, queueId: setup.support, status: 'open' });

      await p.goto(`${suite.web}/tickets/${ticket.uuid}`);
      const chat = p.getByTestId('ticket-chat');
      await eventually(async () => assert.equal(await chat.getAttribute('data-status'), 'open'));

      // Closed while on screen; the contact comes back, goes through the menu and picks Suporte.
      await agent.put(`/tickets/${ticket.id}`, { status: 'closed' });
      await eventually(async () => assert.equal(await chat.getAttribute('data-status'), 'closed'));
      await phone().inbound({ ...contact, body: 'Voltei: o boleto não chegou' });
      await answerMenu(contact, '1');
      await ticketOf(contact.number, (t) => t.id === ticket.id && t.queueId === setup.support);

      // No reload: the chat still on screen shows the question and the answer to the menu.
      await eventually(async () => assert.equal(await chat.getAttribute('data-status'), 'pending'));
      const { messages } = await admin.get<{ messages: { id: number; body: string; fromMe: boolean }[] }>(
        `/messages/${ticket.id}`,
      );
      const missed = messages.filter(
        (m) => (!m.fromMe && ['Voltei: o boleto não chegou', '1'].includes(m.body)) || m.body.includes('Financeiro'),
      );
      assert.equal(missed.length, 3, `the question, the menu and the answer: ${JSON.stringify(messages)}`);
      for (const m of missed) await chat.getByTestId(`message-${m.id}`).waitFor();
      assert.equal(new URL(p.url()).pathname, `/tickets/${ticket.uuid}`);
    }),
  );

  it('a ticket the bot routes to the queue: bell count, tab title count, sound and OS notification', TEST, () =>
    suite.page('bot-routed-notification', async (p) => {
      const contact = { number: '5511944440002', name: 'Igor Pagamento' };
      await captureNotifications(p);
      await countSounds(p);
      await login(p, suite.web, BILLING_AGENT);
      await online(setup.billingAgent);
      const bell = p.getByTestId('notifications-button');
      await eventually(async () => assert.equal(await bell.getAttribute('data-count'), '0'));
      const soundsBefore = await soundsPlayed(p);

      await phone().inbound({ ...contact, body: 'Quero pagar minha fatura' });
      await answerMenu(contact, '2');
      const ticket = await ticketOf(contact.number, (t) => t.queueId === setup.billing);

      await expectText(p.getByTestId('notifications-count'), '1');
      await eventually(async () => assert.match(await p.title(), /^\(1\) /));
      await eventually(async () => assert.ok((await soundsPlayed(p)) > soundsBefore, 'a sound was played'));
      await eventually(async () => {
        const shown = await notices(p);
        assert.ok(
          shown.some((n) => n.title === contact.name),
          `a notification for ${contact.name}: ${JSON.stringify(shown)}`,
        );
      });

      // The bell lists exactly what it counts; its item opens the ticket.
      await bell.click();
      const list = p.getByTestId('notifications-list');
      await list.getByTestId(`notification-item-${ticket.id}`).waitFor();
      assert.equal(await list.locator('[data-testid^="notification-item-"]').count(), 1);
      await p.keyboard.press('Escape');

      // Clicking the OS notification opens the ticket too.
      await p.evaluate(() => {
        const objects = (window as unknown as { __noticeObjects: Notification[] }).__noticeObjects;
        objects.at(-1)?.onclick?.(new Event('click'));
      });
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await p.getByTestId('ticket-chat').waitFor();
    }),
  );
  it('a ticket transferred straight to an agent as open: sound and OS notification that opens it', TEST, () =>
    suite.page('direct-transfer-notification', async (p) => {
      assert.ok(admin);
      const contact = { number: '5511944440003', name: 'Lia Transferida' };
      await captureNotifications(p);
      await countSounds(p);
      await login(p, suite.web, BILLING_AGENT);
      await online(setup.billingAgent);

      await phone().inbound({ ...contact, body: 'Tenho uma dúvida' });
      await answerMenu(contact, '1');
      const ticket = await ticketOf(contact.number, (t) => t.queueId === setup.support);
      const soundsBefore = await soundsPlayed(p);
      // The admin hands it, already open, to the billing agent: it never sits in their bell.
      await admin.put(`/tickets/${ticket.id}`, { status: 'open', queueId: setup.billing, userId: setup.billingAgent });

      await eventually(async () => assert.ok((await soundsPlayed(p)) > soundsBefore, 'a sound was played'));
      await eventually(async () => {
        const shown = await notices(p);
        assert.ok(
          shown.some((n) => n.title === contact.name),
          `a notification for ${contact.name}`,
        );
      });
      await p.evaluate(() => {
        const objects = (window as unknown as { __noticeObjects: Notification[] }).__noticeObjects;
        objects.at(-1)?.onclick?.(new Event('click'));
      });
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await eventually(async () =>
        assert.equal(await p.getByTestId('ticket-chat').getAttribute('data-status'), 'open'),
      );
    }),
  );
});
