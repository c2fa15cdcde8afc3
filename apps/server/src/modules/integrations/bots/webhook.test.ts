import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botError, botTurn } from '../../../../test/bot-turns.js';
import { type FakeBotReceiver, startFakeBotReceiver } from '../../../../test/fakes/bot-receiver.js';
import type { BotIntegration, BotTurn } from './bot.js';
import { createBotClient } from './index.js';
import { createWebhookClient } from './webhook.js';

const SECRET = 'whsec_test_0123456789';

let receiver: FakeBotReceiver;
beforeAll(async () => {
  receiver = await startFakeBotReceiver(SECRET);
});
afterAll(() => receiver.close());
beforeEach(() => receiver.reset());

const client = () => createWebhookClient({ allowPrivate: true, timeoutMs: 2000 });

const turnOf = (over: Partial<BotTurn> = {}, integration: Partial<BotIntegration> = {}) =>
  botTurn(
    'Quero um orçamento',
    {
      id: 3,
      type: 'n8n',
      name: 'Fluxo',
      projectName: 'Fluxo',
      url: receiver.url,
      signingSecret: SECRET,
      ...integration,
    },
    { deliveryId: 'dlv-1', ...over },
  );

describe('webhook / n8n client', () => {
  it('posts the typed event, signed, with timestamp and delivery headers and no secret', async () => {
    const before = Math.floor(Date.now() / 1000);
    await client().turn(
      turnOf({
        message: {
          id: 9,
          type: 'audio',
          text: '',
          mediaUrl: 'https://files.ex/a.ogg?sig=x',
          transcript: 'Quero um orçamento',
        },
      }),
    );
    const [delivery] = receiver.deliveries;
    expect(delivery.signatureValid).toBe(true);
    expect(delivery.json).toEqual({
      event: 'message',
      deliveryId: 'dlv-1',
      companyId: 7,
      ticketId: 42,
      contact: { number: '5511999990000', name: 'Ana' },
      message: {
        id: 9,
        type: 'audio',
        text: '',
        mediaUrl: 'https://files.ex/a.ogg?sig=x',
        transcript: 'Quero um orçamento',
      },
      sessionId: 'ticket-42',
      chatInput: 'Quero um orçamento',
    });
    expect(delivery.headers['x-balcao-delivery']).toBe('dlv-1');
    const timestamp = Number(delivery.headers['x-balcao-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(delivery.headers.authorization).toBeUndefined();
    expect(delivery.raw).not.toContain(SECRET);
  });

  it('is caught by the receiver when signed with another secret', async () => {
    await client().turn(turnOf({}, { signingSecret: 'another' }));
    expect(receiver.deliveries[0].signatureValid).toBe(false);
  });

  it('keeps the session id it is given and returns it', async () => {
    const answer = await client().turn(turnOf({ sessionId: 'abc-1' }));
    expect(receiver.deliveries[0].json.sessionId).toBe('abc-1');
    expect(answer).toEqual({ outputs: [], sessionId: 'abc-1', actions: [] });
  });

  it('reads output, answer, or an n8n array of items', async () => {
    receiver.script(
      { json: { output: 'Olá *Ana*' } },
      { json: { answer: 'Resposta' } },
      { json: [{ output: 'Do agente' }] },
    );
    expect((await client().turn(turnOf())).outputs).toEqual([{ kind: 'text', text: 'Olá *Ana*' }]);
    expect((await client().turn(turnOf())).outputs).toEqual([{ kind: 'text', text: 'Resposta' }]);
    expect((await client().turn(turnOf())).outputs).toEqual([{ kind: 'text', text: 'Do agente' }]);
  });

  it('reads messages of text and media, skipping what cannot be sent', async () => {
    receiver.script({
      json: {
        messages: [
          'Primeira',
          { text: 'Segunda' },
          { type: 'image', url: 'https://cdn.ex/p.png', caption: 'Produto' },
          { type: 'document', url: 'https://cdn.ex/c.pdf' },
          { type: 'video', url: 'file:///etc/passwd' },
          { type: 'sticker', url: 'https://cdn.ex/s.webp' },
          '',
          42,
        ],
      },
    });
    expect((await client().turn(turnOf())).outputs).toEqual([
      { kind: 'text', text: 'Primeira' },
      { kind: 'text', text: 'Segunda' },
      { kind: 'media', mediaType: 'image', url: 'https://cdn.ex/p.png', caption: 'Produto' },
      { kind: 'media', mediaType: 'document', url: 'https://cdn.ex/c.pdf' },
    ]);
  });

  it('turns control verbs into actions, whether named as actions or sent as text', async () => {
    receiver.script(
      { json: { output: 'Transferindo…', action: 'transfer:5' } },
      { json: { messages: ['Tchau', 'close'], actions: ['handoff', 'dance', 7] } },
      { json: [{ output: 'HANDOFF' }] },
    );
    expect(await client().turn(turnOf())).toMatchObject({
      outputs: [{ kind: 'text', text: 'Transferindo…' }],
      actions: [{ verb: 'transfer', queueId: 5 }],
    });
    expect(await client().turn(turnOf())).toMatchObject({
      outputs: [{ kind: 'text', text: 'Tchau' }],
      actions: [{ verb: 'close' }, { verb: 'handoff' }],
    });
    expect(await client().turn(turnOf())).toMatchObject({ outputs: [], actions: [{ verb: 'handoff' }] });
  });

  it('treats an empty or plain-text acknowledgement as no reply, and broken JSON as a failure', async () => {
    receiver.script(
      { raw: '' },
      { raw: 'OK' },
      { json: { message: 'Workflow was started' } },
      { raw: '{"output":', contentType: 'application/json' },
    );
    expect((await client().turn(turnOf())).outputs).toEqual([]);
    expect((await client().turn(turnOf())).outputs).toEqual([]);
    expect((await client().turn(turnOf())).outputs).toEqual([]);
    expect((await botError(client().turn(turnOf()))).message).toMatch(/not JSON/);
  });

  it('fails with BotError on a 5xx', async () => {
    receiver.script({ status: 500 });
    const err = await botError(client().turn(turnOf()));
    expect(err.status).toBe(500);
    expect(err.message).toBe('HTTP 500');
  });

  it('fails with BotError within the timeout of its type when the receiver never answers', async () => {
    receiver.script({ hang: true }, { hang: true });
    const options = { allowPrivate: true, dialogflowBaseUrl: '', timeouts: { webhook: 100, n8n: 250 } };
    let started = Date.now();
    expect((await botError(createBotClient('webhook', options).turn(turnOf()))).message).toMatch(/100 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
    started = Date.now();
    expect((await botError(createBotClient('n8n', options).turn(turnOf()))).message).toMatch(/250 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses a private address unless allowed', async () => {
    const err = await botError(createWebhookClient({ allowPrivate: false, timeoutMs: 2000 }).turn(turnOf()));
    expect(err.message).toMatch(/private/);
    expect(receiver.deliveries).toHaveLength(0);
  });
});
