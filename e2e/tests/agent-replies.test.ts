import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login, waitForPath } from '../support/ui';

const TEST = { timeout: 60_000 };

/** The receiving agent of the transfer: queue "Suporte" only. */
const BRUNO = { name: 'Bruno', email: 'bruno.replies@balcao.test', password: 'bruno-secret' };
const CONTACT = { number: '5511966660001', name: 'Joana Prado' };
const FILE = { name: 'cardapio.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 cardápio do dia') };

interface TicketRow {
  id: number;
  uuid: string;
  contact: { number: string };
}

describe('agent replies: quick replies with variables and a file, transfer with its event line, undo a close', () => {
  const setup = { queueId: 0, brunoId: 0, adminId: 0, whatsappId: 0, quickId: 0 };

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const token = await apiLogin(started, ADMIN);
    const admin = api(started, token);
    const queue = await admin.post<{ id: number }>('/queue', { name: 'Suporte', color: '#2E7D32' });
    const bruno = await admin.post<{ id: number }>('/users', { ...BRUNO, profile: 'user', queueIds: [queue.id] });
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox Replies', [queue.id]);
    const quick = await admin.post<{ id: number }>('/quick-messages', {
      shortcode: 'cardapio',
      message: 'Olá {{firstName}}! {{ms}}, segue o cardápio. Protocolo {{protocol}}.',
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(FILE.data)], { type: FILE.type }), FILE.name);
    const upload = await fetch(`${started.apiUrl}/quick-messages/${quick.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    assert.equal(upload.status, 200, await upload.text());
    Object.assign(setup, { queueId: queue.id, brunoId: bruno.id, quickId: quick.id });
  });

  it('a quick reply reaches the phone rendered and with its file; a transfer shows its event line', TEST, () =>
    suite.page('agent-replies', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, ADMIN);
      const admin = await pageApi(suite.product, p);
      const phone = sandboxPhone(admin, setup.whatsappId);

      await phone.inbound({ ...CONTACT, body: 'Oi, qual é o cardápio?' });
      const ticket = await until('the contact’s ticket', async () => {
        const { tickets } = await admin.get<{ tickets: TicketRow[] }>(
          `/tickets?showAll=true&searchParam=${CONTACT.number}`,
        );
        return tickets.find((t) => t.contact.number === CONTACT.number);
      });
      await p.getByTestId('tab-pending').click();
      await p.getByTestId(`ticket-item-${ticket.id}`).getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);

      // The quick reply: its text goes in the input, its file waits beside it.
      const input = p.getByTestId('message-composer').getByTestId('message-input');
      await input.fill('/cardap');
      await p.getByTestId(`quick-reply-${setup.quickId}`).click();
      await expectText(p.getByTestId('quick-reply-media'), FILE.name);
      await input.press('Enter');

      const received = await phone.received(CONTACT.number, 'the quick reply', (m) => m.media?.fileName === FILE.name);
      assert.match(received.body, /Olá Joana! (Bom dia|Boa tarde|Boa noite), segue o cardápio\. Protocolo \d{9,}\./);
      assert.ok(!received.body.includes('{{'), `rendered: ${received.body}`);
      const file = await fetch(`${suite.product.apiUrl}${received.media?.url}`, {
        headers: { authorization: `Bearer ${await p.evaluate(() => localStorage.getItem('token'))}` },
      });
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), FILE.data);

      // Transfer: the users offered are the queue's, the sender is told, the chat shows the line.
      await p.getByTestId('ticket-options-button').click();
      await p.getByTestId('transfer-button').click();
      await p.getByTestId('transfer-modal').waitFor();
      await p.getByTestId('transfer-queue').getByRole('combobox').click();
      await p.getByTestId(`transfer-queue-${setup.queueId}`).click();
      await p.getByTestId('transfer-user').getByRole('combobox').click();
      const offered = await p.getByRole('listbox').getByRole('option').allTextContents();
      assert.deepEqual(offered.slice(1), [BRUNO.name], 'only the queue’s users are offered');
      await p.getByTestId(`transfer-user-${setup.brunoId}`).click();
      await p.getByTestId('transfer-submit').click();
      await p.getByRole('alert').filter({ hasText: 'Bruno · Suporte' }).waitFor();
      await waitForPath(p, '/tickets');

      // The line survives a reload.
      await p.goto(`${suite.web}/tickets/${ticket.uuid}`);
      await expectText(p.getByTestId('transfer-line'), 'Transferido para Bruno · Suporte');
      await eventually(async () => {
        const { messages } = await admin.get<{ messages: { mediaType: string }[] }>(`/messages/${ticket.id}`);
        assert.equal(messages.filter((m) => m.mediaType === 'transfer').length, 1);
      });

      // Resolving offers an undo for a few seconds: it reopens the ticket.
      await p.getByTestId('ticket-header').getByTestId('resolve-button').click();
      await waitForPath(p, '/tickets');
      await p.getByTestId('undo-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await eventually(async () =>
        assert.equal(await p.getByTestId('ticket-chat').getAttribute('data-status'), 'open'),
      );
    }),
  );
});
