import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';

import { choiceInput, type FakeTypebot, startFakeTypebot, textBubble } from '../../apps/server/test/fakes/typebot';
import { api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectAbsent, expectText, login, waitForPath } from '../support/ui';

const TEST = { timeout: 120_000 };

const FLOW = { name: 'Fluxo de Boas-vindas', slug: 'boas-vindas-e2e' };
const CONTACT = { number: '5511944440001', name: 'Paula Fluxo' };
/** A plain user (no queue) who opens the widget. */
const AGENT = { name: 'Lia Assistente', email: 'lia.assistente@balcao.test', password: 'lia-secret-pass' };
const OPENAI_TOKEN = 'sk-e2e-widget-0123456789abcdef';

interface ChatCompletionCall {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

interface FakeOpenAi {
  /** The base URL for `OPENAI_BASE_URL`. */
  url: string;
  chats: ChatCompletionCall[];
  /** The next answers, one per call (then a default). */
  answers: string[];
  close(): Promise<void>;
}

/**
 * A local stand-in for OpenAI's `POST /v1/chat/completions`, answered in the documented shape.
 * (The server tests' fake, apps/server/test/fakes/openai.ts, needs DOM.Iterable, which the e2e
 * tsconfig lacks.)
 */
async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let seq = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/chat/completions')
      return reply(404, { error: { message: `Unknown path ${req.url}`, type: 'invalid_request_error' } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionCall['body'];
    fake.chats.push({ authorization: req.headers.authorization, body });
    seq += 1;
    reply(200, {
      id: `chatcmpl-${seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: fake.answers.shift() ?? 'Olá! Como posso ajudar?', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  const fake: FakeOpenAi = {
    url: '',
    chats: [],
    answers: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

interface TicketRow {
  id: number;
  uuid: string;
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  useIntegration: boolean;
  contact: { number: string };
}
interface MessageRow {
  id: number;
  body: string;
  fromMe: boolean;
}

describe('bots: a Typebot flow hands the contact to an agent; the chat-assistant widget', () => {
  const fakes: { typebot?: FakeTypebot; openai?: FakeOpenAi } = {};
  const setup = { whatsappId: 0 };

  // Before the product starts: its process needs the fakes' addresses.
  before(async () => {
    const [typebot, openai] = await Promise.all([startFakeTypebot(), startFakeOpenAi()]);
    fakes.typebot = typebot;
    fakes.openai = openai;
  });

  const suite = productSuite(
    async (started) => {
      // This API session ends when the admin logs in in the browser; it is only used here.
      const admin = api(started, await apiLogin(started, ADMIN));
      // No queue: the connection's integration answers the ticket (DOMAIN §1.7).
      setup.whatsappId = await connectedSandbox(admin, 'Sandbox Bots', []);
      await admin.post('/users', { ...AGENT, profile: 'user', queueIds: [] });
    },
    {
      env: () => ({
        // The fake Typebot listens on 127.0.0.1, which the SSRF guard refuses otherwise.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        OPENAI_BASE_URL: fakes.openai?.url ?? '',
      }),
    },
  );

  after(async () => {
    await Promise.all([fakes.typebot?.close(), fakes.openai?.close()]);
  });

  it('a sandbox contact talks to a Typebot flow (fake) and is handed to an agent', TEST, () =>
    suite.page('bots-typebot-handoff', async (p) => {
      assert.ok(suite.product && fakes.typebot);
      const product = suite.product;
      const typebot = fakes.typebot;
      await login(p, suite.web, ADMIN);
      const admin = await pageApi(product, p);

      // The admin adds the Typebot integration in its dialog.
      await p.goto(`${suite.web}/queue-integration`);
      await p.getByTestId('queueIntegrations-add').click();
      const modal = p.getByTestId('integration-modal');
      await modal.waitFor();
      await p.getByTestId('integration-type').getByRole('combobox').click();
      await p.getByTestId('integration-type-option-typebot').click();
      await p.getByTestId('integration-name').fill(FLOW.name);
      await p.getByTestId('integration-url').fill(typebot.url);
      await p.getByTestId('integration-typebot-slug').fill(FLOW.slug);
      await p.getByTestId('integration-typebot-delay').fill('0');
      await p.getByTestId('integration-modal-submit').click();
      await expectAbsent(modal);

      const integration = await until('the saved integration', async () =>
        (
          await admin.get<{ id: number; name: string; type: string; urlN8N: string; typebotSlug: string }[]>(
            '/queueIntegration',
          )
        ).find((i) => i.name === FLOW.name),
      );
      assert.equal(integration.type, 'typebot');
      assert.equal(integration.urlN8N, typebot.url);
      assert.equal(integration.typebotSlug, FLOW.slug);
      await expectText(p.getByTestId(`integration-type-${integration.id}`), 'Typebot');
      assert.equal(typebot.requests.length, 0, 'saving calls nothing');

      // The connection hands its queue-less tickets to the flow.
      await admin.put(`/whatsapp/${setup.whatsappId}`, { integrationId: integration.id });
      const connection = await admin.get<{ integrationId: number | null }>(`/whatsapp/${setup.whatsappId}`);
      assert.equal(connection.integrationId, integration.id);

      // The flow: a greeting and a choice; the contact's choice ends it with a goodbye and `handoff`.
      typebot.script(
        {
          messages: [textBubble('Olá! Sou o assistente da loja.')],
          input: choiceInput('Comprar', 'Falar com atendente'),
        },
        { messages: [textBubble('Certo, vou chamar um atendente.'), textBubble('handoff')] },
      );
      const phone = sandboxPhone(admin, setup.whatsappId);
      assert.deepEqual(await phone.outbound(CONTACT.number), []);

      await phone.inbound({ ...CONTACT, body: 'Oi, boa tarde' });
      await phone.received(CONTACT.number, 'the greeting', (m) => m.body === 'Olá! Sou o assistente da loja.');
      await phone.received(
        CONTACT.number,
        'the numbered choices',
        (m) => m.body === '1 - Comprar\n2 - Falar com atendente',
      );
      const start = typebot.requests[0];
      assert.equal(start.kind, 'start');
      assert.equal(start.slug, FLOW.slug);
      assert.deepEqual(start.body.message, { type: 'text', text: 'Oi, boa tarde' });
      assert.equal((start.body.prefilledVariables as { number?: string }).number, CONTACT.number);

      const ticket = await until('the contact’s ticket', async () => {
        const { tickets } = await admin.get<{ tickets: TicketRow[] }>(
          `/tickets?showAll=true&searchParam=${CONTACT.number}`,
        );
        return tickets.find((t) => t.contact.number === CONTACT.number);
      });
      assert.equal(ticket.status, 'pending');
      assert.equal(ticket.userId, null);

      // The contact answers with the option's number: the flow receives the label.
      await phone.inbound({ ...CONTACT, body: '2' });
      await phone.received(CONTACT.number, 'the goodbye', (m) => m.body === 'Certo, vou chamar um atendente.');
      await until('the ticket to leave the bot', async () => {
        const row = await admin.get<TicketRow>(`/tickets/${ticket.id}`);
        return !row.useIntegration && row;
      });
      assert.equal(typebot.requests.length, 2);
      const next = typebot.requests[1];
      assert.equal(next.kind, 'continue');
      assert.equal(next.sessionId, 'sess1');
      assert.deepEqual(next.body.message, { type: 'text', text: 'Falar com atendente' });
      const outbound = await phone.outbound(CONTACT.number);
      assert.deepEqual(
        outbound.map((m) => m.body),
        ['Olá! Sou o assistente da loja.', '1 - Comprar\n2 - Falar com atendente', 'Certo, vou chamar um atendente.'],
        'the control verb is never shown to the contact',
      );

      // An agent takes it from the pending list and replies.
      await p.goto(`${suite.web}/tickets`);
      await p.getByTestId('tab-pending').click();
      const item = p.getByTestId(`ticket-item-${ticket.id}`);
      await item.getByText(CONTACT.name, { exact: true }).waitFor();
      assert.equal(await item.getAttribute('data-status'), 'pending');
      await item.getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      const chat = p.getByTestId('ticket-chat');
      await eventually(async () => assert.equal(await chat.getAttribute('data-status'), 'open'));

      const reply = 'Oi Paula, sou a atendente. Como posso ajudar?';
      const input = p.getByTestId('message-composer').getByTestId('message-input');
      await input.fill(reply);
      await input.press('Enter');
      await phone.received(CONTACT.number, 'the agent’s reply', (m) => m.body.includes(reply));

      // The contact keeps talking to the agent: the flow is not called again.
      await phone.inbound({ ...CONTACT, body: 'Quero trocar um produto' });
      const stored = await until('the contact’s new message in the ticket', async () =>
        (await admin.get<{ messages: MessageRow[] }>(`/messages/${ticket.id}`)).messages.find(
          (m) => !m.fromMe && m.body === 'Quero trocar um produto',
        ),
      );
      await p.getByTestId(`message-${stored.id}`).getByText('Quero trocar um produto').waitFor();
      assert.equal(typebot.requests.length, 2, 'the fake Typebot received nothing after the handoff');
      const last = await admin.get<TicketRow>(`/tickets/${ticket.id}`);
      assert.equal(last.status, 'open');
      assert.equal(last.useIntegration, false);
    }),
  );

  it('the chat-assistant widget logs in, saves a token, chats and shows the counter', TEST, () =>
    suite.page('bots-assistant-widget', async (p) => {
      assert.ok(suite.product && fakes.openai);
      const openai = fakes.openai;
      await login(p, suite.web, AGENT);

      await p.getByTestId('assistant-launcher').click();
      const widget = p.getByTestId('assistant-widget');
      await widget.waitFor();

      // Auth: the user's own e-mail and password.
      await eventually(async () => assert.equal(await widget.getAttribute('data-state'), 'auth'));
      await expectText(widget.getByTestId('assistant-counter'), '20/20');
      await p.getByTestId('assistant-username').fill(AGENT.email);
      await p.getByTestId('assistant-password').fill(AGENT.password);
      await p.getByTestId('assistant-sign-in').click();

      // Token: saved, the success message shows, the chat follows 1.5 s later.
      await eventually(async () => assert.equal(await widget.getAttribute('data-state'), 'token'));
      await p.getByTestId('assistant-token-input').fill(OPENAI_TOKEN);
      await p.getByTestId('assistant-save-token').click();
      await expectText(p.getByTestId('assistant-token-saved'), 'Token salvo com sucesso!');
      assert.equal(await widget.getAttribute('data-state'), 'token', 'the success message shows first');
      await eventually(async () => assert.equal(await widget.getAttribute('data-state'), 'chat'));
      const agent = await pageApi(suite.product, p);
      const state = await agent.get('/assistant');
      assert.ok(!JSON.stringify(state).includes(OPENAI_TOKEN), 'the token never reaches the browser');

      // A message: the fake's answer shows and the counter goes down.
      openai.answers.push('Para trocar um produto, abra um ticket na fila de Trocas.');
      await p.getByTestId('assistant-input').fill('Como faço para trocar um produto?');
      await p.getByTestId('assistant-send').click();
      await widget
        .getByTestId('assistant-entry-user')
        .filter({ hasText: 'Como faço para trocar um produto?' })
        .waitFor();
      await widget
        .getByTestId('assistant-entry-assistant')
        .filter({ hasText: 'Para trocar um produto, abra um ticket na fila de Trocas.' })
        .waitFor();
      await expectText(widget.getByTestId('assistant-counter'), '19/20');
      assert.equal(await p.getByTestId('assistant-input').inputValue(), '');

      assert.equal(openai.chats.length, 1);
      assert.equal(openai.chats[0].authorization, `Bearer ${OPENAI_TOKEN}`);
      assert.deepEqual(openai.chats[0].body.messages.at(-1), {
        role: 'user',
        content: 'Como faço para trocar um produto?',
      });
    }),
  );
});
