import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botError, botTurn } from '../../../../test/bot-turns.js';
import { type FakeDialogflow, startFakeDialogflow } from '../../../../test/fakes/dialogflow.js';
import type { BotIntegration, BotTurn } from './bot.js';
import { createDialogflowClient } from './dialogflow.js';

let fake: FakeDialogflow;
let credentials: string;
beforeAll(async () => {
  fake = await startFakeDialogflow();
  credentials = fake.createServiceAccount();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

// Tokens are cached per integration id across clients: each test gets ids of its own.
let nextId = 100;
let integrationId = 0;
beforeEach(() => {
  integrationId = ++nextId;
});

const client = (over: { timeoutMs?: number; allowPrivate?: boolean } = {}) =>
  createDialogflowClient({ allowPrivate: true, baseUrl: `${fake.url}/`, timeoutMs: 2000, ...over });

const turnOf = (text: string, integration: Partial<BotIntegration> = {}, over: Partial<BotTurn> = {}) =>
  botTurn(
    text,
    {
      id: integrationId,
      type: 'dialogflow',
      name: 'Agente',
      projectName: 'my-agent-prj',
      jsonContent: credentials,
      ...integration,
    },
    over,
  );

describe('dialogflow client', () => {
  it('signs a JWT for a token, then asks detectIntent in the integration language on a per-ticket session', async () => {
    fake.script({
      queryResult: {
        fulfillmentText: 'Oi! Em que posso ajudar?',
        fulfillmentMessages: [
          { text: { text: ['Oi!'] } },
          { text: { text: ['Em que posso ajudar?'] }, platform: 'PLATFORM_UNSPECIFIED' },
          { text: { text: ['Hi from Telegram'] }, platform: 'TELEGRAM' },
        ],
      },
    });
    const answer = await client().turn(turnOf('Olá'));
    expect(answer).toEqual({
      outputs: [
        { kind: 'text', text: 'Oi!' },
        { kind: 'text', text: 'Em que posso ajudar?' },
      ],
      sessionId: 'ticket-42',
      actions: [],
    });

    expect(fake.tokenRequests).toHaveLength(1);
    const [tokenRequest] = fake.tokenRequests;
    expect(tokenRequest.assertionValid).toBe(true);
    expect(tokenRequest.claims).toMatchObject({
      iss: JSON.parse(credentials).client_email,
      aud: fake.tokenUri,
      scope: 'https://www.googleapis.com/auth/dialogflow',
    });
    expect(fake.detectIntents).toEqual([
      {
        project: 'my-agent-prj',
        session: 'ticket-42',
        token: 'ya29.fake-1',
        body: { queryInput: { text: { text: 'Olá', languageCode: 'pt-BR' } } },
      },
    ]);
  });

  it("uses the JSON's project_id without a project name, and the session id it is given", async () => {
    await client().turn(turnOf('Hola', { projectName: '', language: 'es' }, { sessionId: 'ticket-7' }));
    expect(fake.detectIntents[0]).toMatchObject({
      project: 'balcao-test',
      session: 'ticket-7',
      body: { queryInput: { text: { languageCode: 'es' } } },
    });
  });

  it('caches the token per integration and rebuilds it when the credentials change', async () => {
    await client().turn(turnOf('um'));
    await client().turn(turnOf('dois'));
    expect(fake.tokenRequests).toHaveLength(1);
    expect(new Set(fake.detectIntents.map((d) => d.token)).size).toBe(1);

    const changed = fake.createServiceAccount();
    await client().turn(turnOf('três', { jsonContent: changed }));
    expect(fake.tokenRequests).toHaveLength(2);
    expect(fake.tokenRequests[1].claims?.iss).toBe(JSON.parse(changed).client_email);
    expect(fake.detectIntents[2].token).not.toBe(fake.detectIntents[1].token);

    // Another integration with the same credentials has its own token.
    await client().turn(turnOf('quatro', { id: ++nextId, jsonContent: changed }));
    expect(fake.tokenRequests).toHaveLength(3);
  });

  it('renews a token about to expire, and one Dialogflow refused', async () => {
    fake.tokenTtlSeconds = 30;
    await client().turn(turnOf('um'));
    await client().turn(turnOf('dois'));
    expect(fake.tokenRequests).toHaveLength(2);

    fake.tokenTtlSeconds = 3599;
    await client().turn(turnOf('três'));
    fake.revokeTokens();
    expect((await botError(client().turn(turnOf('quatro')))).status).toBe(401);
    await client().turn(turnOf('cinco'));
    expect(fake.tokenRequests).toHaveLength(4);
  });

  it('hands over on an intent action or a fulfilment payload, once', async () => {
    fake.script(
      {
        queryResult: {
          action: 'handoff',
          fulfillmentMessages: [{ text: { text: ['Chamando um atendente'] } }, { payload: { action: 'handoff' } }],
        },
      },
      { queryResult: { action: 'input.unknown', fulfillmentMessages: [{ payload: { action: 'transfer:3' } }] } },
      {
        queryResult: {
          action: 'input.welcome',
          fulfillmentText: 'Até logo',
          diagnosticInfo: { end_conversation: true },
        },
      },
    );
    expect(await client().turn(turnOf('humano'))).toMatchObject({
      outputs: [{ kind: 'text', text: 'Chamando um atendente' }],
      actions: [{ verb: 'handoff' }],
    });
    expect(await client().turn(turnOf('financeiro'))).toMatchObject({
      outputs: [],
      actions: [{ verb: 'transfer', queueId: 3 }],
    });
    expect(await client().turn(turnOf('tchau'))).toEqual({
      outputs: [{ kind: 'text', text: 'Até logo' }],
      sessionId: 'ticket-42',
      actions: [],
      finished: true,
    });
  });

  it('sends at most 256 characters, and nothing for a message without text', async () => {
    await client().turn(turnOf('a'.repeat(300)));
    expect(fake.detectIntents[0].body.queryInput?.text?.text).toHaveLength(256);
    const answer = await client().turn(turnOf('', {}, { message: { id: 1, type: 'image', text: '' } }));
    expect(answer).toEqual({ outputs: [], sessionId: 'ticket-42', actions: [] });
    expect(fake.detectIntents).toHaveLength(1);
  });

  it('fails with BotError on unusable credentials, without repeating them', async () => {
    let err = await botError(client().turn(turnOf('Oi', { jsonContent: '{"private_key": "-----BEGIN' })));
    expect(err.message).not.toContain('BEGIN');
    err = await botError(client().turn(turnOf('Oi', { jsonContent: JSON.stringify({ client_email: 'x@y' }) })));
    expect(err.message).toMatch(/private_key/);
    err = await botError(client().turn(turnOf('Oi', { jsonContent: credentials.replace(/MII[A-Za-z0-9+/]/, 'XX') })));
    expect(err.message).toMatch(/RSA key/);

    // A key the token endpoint does not trust.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const forged = JSON.stringify({ ...JSON.parse(credentials), private_key: stranger });
    err = await botError(client().turn(turnOf('Oi', { jsonContent: forged })));
    expect(err.status).toBe(400);
    expect(fake.tokenRequests.at(-1)?.assertionValid).toBe(false);
    expect(fake.detectIntents).toHaveLength(0);
  });

  it('fails with BotError on a 5xx and within the timeout when Dialogflow never answers', async () => {
    fake.script({ status: 500 }, { hang: true });
    expect((await botError(client().turn(turnOf('Oi')))).status).toBe(500);
    const started = Date.now();
    expect((await botError(client({ timeoutMs: 150 }).turn(turnOf('Oi')))).message).toMatch(/150 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses private addresses, token URI included, unless allowed', async () => {
    const err = await botError(client({ allowPrivate: false }).turn(turnOf('Oi')));
    expect(err.message).toMatch(/private/);
    expect(fake.tokenRequests).toHaveLength(0);
  });
});
