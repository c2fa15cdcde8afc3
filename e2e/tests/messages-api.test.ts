import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { expectText, login } from '../support/ui';

const TEST = { timeout: 90_000 };
const CONTACT = '5511977770001';
const FILE = { name: 'nota fiscal.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 nota fiscal de maio') };

interface SendReply {
  id: number;
  ids: number[];
  ticketId: number;
  status: string;
}

describe('external message API: a connection token sends into the agent’s chat', () => {
  const setup = { whatsappId: 0 };

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox API', []);
  });

  it(
    'the admin generates a token in the connection dialog; a call with it and the test form reach the chat',
    TEST,
    () =>
      suite.page('messages-api', async (p) => {
        assert.ok(suite.product);
        const product = suite.product;
        await login(p, suite.web, ADMIN);
        const admin = await pageApi(product, p);

        // The token: generated in the connection's edit dialog, shown once.
        await p.goto(`${suite.web}/connections`);
        await p.getByTestId(`connection-edit-${setup.whatsappId}`).click();
        await p.getByTestId('connection-modal').waitFor();
        await p.getByTestId('connection-token-generate').click();
        const token = await until('the token to show', async () =>
          p
            .getByTestId('connection-token-value')
            .inputValue({ timeout: 1_000 })
            .catch(() => ''),
        );
        assert.match(token, /^[A-Za-z0-9_-]{43}$/);
        await p.getByTestId('connection-modal-cancel').click();
        const connection = await admin.get<{ hasToken: boolean }>(`/whatsapp/${setup.whatsappId}`);
        assert.equal(connection.hasToken, true);
        assert.ok(!JSON.stringify(connection).includes(token), 'the token is never read back');

        // An outside system sends with it.
        const send = await fetch(`${product.apiUrl}/api/messages/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ number: CONTACT, body: 'Seu pedido 1234 saiu para entrega' }),
        });
        assert.equal(send.status, 201, await send.clone().text());
        const sent = (await send.json()) as SendReply;
        assert.equal(sent.status, 'pending');

        const phone = sandboxPhone(admin, setup.whatsappId);
        await phone.received(CONTACT, 'the API message', (m) => m.body === 'Seu pedido 1234 saiu para entrega');
        const state = await until('the message to be sent', async () => {
          const r = await fetch(`${product.apiUrl}/api/messages/${sent.id}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const body = (await r.json()) as { status: string };
          return body.status === 'sent' && body;
        });
        assert.equal(state.status, 'sent');

        // The agent opens the ticket: the message is in its history.
        const ticket = await admin.get<{ uuid: string; contact: { number: string } }>(`/tickets/${sent.ticketId}`);
        assert.equal(ticket.contact.number, CONTACT);
        await p.goto(`${suite.web}/tickets/${ticket.uuid}`);
        await p.getByTestId('ticket-chat').waitFor();
        const first = p.getByTestId(`message-${sent.id}`);
        await first.waitFor();
        assert.match((await first.textContent()) ?? '', /Seu pedido 1234 saiu para entrega/);

        // The /messages-api page's test form sends a file with the same token, in another tab;
        // the open chat shows it live.
        const docs = await p.context().newPage();
        await docs.goto(`${suite.web}/messages-api`);
        await expectText(docs.getByTestId('page-title'), 'Documentação para envio de mensagens');
        await expectText(docs.getByTestId('messages-api-endpoint'), `${product.apiUrl}/api/messages/send`);
        await docs.getByTestId('messages-api-token').fill(token);
        await docs.getByTestId('messages-api-number').fill(CONTACT);
        await docs.getByTestId('messages-api-body').fill('Segue a nota');
        await docs.getByTestId('messages-api-file').setInputFiles({
          name: FILE.name,
          mimeType: FILE.type,
          buffer: FILE.data,
        });
        await expectText(docs.getByTestId('messages-api-file-name'), 'nota_fiscal.pdf');
        await docs.getByTestId('messages-api-submit').click();
        await docs.getByRole('alert').filter({ hasText: 'Mensagem enviada com sucesso' }).waitFor();
        const lastSent = (await docs.getByTestId('messages-api-last-sent').textContent()) ?? '';
        const fileMessageId = Number(/id (\d+)/.exec(lastSent)?.[1]);
        assert.ok(fileMessageId > sent.id, lastSent);
        await docs.close();

        const received = await phone.received(CONTACT, 'the file', (m) => m.media?.fileName === 'nota_fiscal.pdf');
        assert.equal(received.body, 'Segue a nota');
        const second = p.getByTestId(`message-${fileMessageId}`);
        // The document's name shows once its file has loaded (a spinner before).
        await second.filter({ hasText: 'nota_fiscal.pdf' }).waitFor();
        assert.match((await second.textContent()) ?? '', /Segue a nota/);
      }),
  );
});
