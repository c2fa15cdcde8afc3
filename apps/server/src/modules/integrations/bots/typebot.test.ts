import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botError, botTurn } from '../../../../test/bot-turns.js';
import {
  choiceInput,
  type FakeTypebot,
  mediaBubble,
  richTextBubble,
  setVariableAction,
  startFakeTypebot,
  textBubble,
  textInput,
  waitAction,
} from '../../../../test/fakes/typebot.js';
import type { BotTurn } from './bot.js';
import { createTypebotClient, richTextToWhatsApp } from './typebot.js';

let fake: FakeTypebot;
beforeAll(async () => {
  fake = await startFakeTypebot();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const client = () => createTypebotClient({ allowPrivate: true, timeoutMs: 2000 });

const turnOf = (text: string, over: Partial<BotTurn> = {}) =>
  botTurn(text, { type: 'typebot', url: `${fake.url}/`, typebotSlug: 'my-bot-x1' }, over);

describe('richTextToWhatsApp', () => {
  it('converts marks, keeping spaces outside the markers', () => {
    expect(
      richTextToWhatsApp([
        {
          type: 'p',
          children: [
            { text: 'Olá ' },
            { text: 'Ana ', bold: true },
            { text: 'tudo', italic: true },
            { text: ' ' },
            { text: 'bem', strikethrough: true },
            { text: '?', bold: true, italic: true },
            { text: ' sublinhado', underline: true },
          ],
        },
      ] as never),
    ).toBe('Olá *Ana* _tudo_ ~bem~*_?_* sublinhado');
  });

  it('keeps paragraphs and blank lines, renders links and lists', () => {
    expect(
      richTextToWhatsApp([
        { type: 'p', children: [{ text: 'Veja:' }] },
        { type: 'p', children: [{ text: '' }] },
        {
          type: 'p',
          children: [
            { text: '' },
            { type: 'a', url: 'https://ex.com/a', children: [{ text: 'o site' }] },
            { text: ' e ' },
            { type: 'a', url: 'https://ex.com/b', children: [{ text: 'https://ex.com/b' }] },
          ],
        },
        {
          type: 'ol',
          children: [
            { type: 'li', children: [{ type: 'lic', children: [{ text: 'Um' }] }] },
            {
              type: 'li',
              children: [
                { type: 'lic', children: [{ text: 'Dois' }] },
                { type: 'ul', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'a' }] }] }] },
              ],
            },
          ],
        },
      ]),
    ).toBe('Veja:\n\no site (https://ex.com/a) e https://ex.com/b\n1. Um\n2. Dois\n   - a');
  });
});

describe('typebot client', () => {
  it('starts a chat with the first message and prefilled variables, then continues the session', async () => {
    fake.script(
      { messages: [textBubble([{ text: 'Bem-vinda, ' }, { text: 'Ana', bold: true }])], input: textInput() },
      { messages: [textBubble('Anotado.')] },
    );
    const first = await client().turn(turnOf('Oi'));
    expect(first).toEqual({
      outputs: [{ kind: 'text', text: 'Bem-vinda, *Ana*' }],
      sessionId: 'sess1',
      actions: [],
      finished: false,
    });
    expect(fake.requests[0]).toMatchObject({
      kind: 'start',
      slug: 'my-bot-x1',
      body: {
        message: { type: 'text', text: 'Oi' },
        isStreamEnabled: false,
        prefilledVariables: { number: '5511999990000', name: 'Ana', ticketId: 42 },
      },
    });

    const second = await client().turn(turnOf('Meu pedido', { sessionId: 'sess1' }));
    expect(second).toEqual({
      outputs: [{ kind: 'text', text: 'Anotado.' }],
      sessionId: 'sess1',
      actions: [],
      finished: true,
    });
    expect(fake.requests[1]).toMatchObject({
      kind: 'continue',
      sessionId: 'sess1',
      body: { message: { type: 'text', text: 'Meu pedido' } },
    });
  });

  it('renders a choice input as a numbered list and sends the label the number stands for', async () => {
    fake.script({ messages: [textBubble('Escolha:')], input: choiceInput('Vendas', 'Suporte') }, {}, {}, {});
    const first = await client().turn(turnOf('Oi'));
    expect(first.outputs).toEqual([
      { kind: 'text', text: 'Escolha:' },
      { kind: 'text', text: '1 - Vendas\n2 - Suporte' },
    ]);
    expect(first.pendingChoices).toEqual(['Vendas', 'Suporte']);
    expect(first.finished).toBe(false);

    const next = { sessionId: first.sessionId, choices: first.pendingChoices };
    await client().turn(turnOf(' 2 ', next));
    await client().turn(turnOf('suporte', next));
    await client().turn(turnOf('3', next));
    expect(fake.requests.slice(1).map((r) => (r.body.message as { text: string }).text)).toEqual([
      'Suporte',
      'Suporte',
      '3',
    ]);
  });

  it('places waits where Typebot runs them and sends media', async () => {
    const hello = textBubble('Olá');
    const image = mediaBubble('image', { url: 'https://cdn.ex/a.png' });
    fake.script({
      messages: [
        hello,
        image,
        mediaBubble('audio', { url: 'https://cdn.ex/a.mp3' }),
        mediaBubble('video', { url: 'https://cdn.ex/v.mp4', type: 'url' }),
        mediaBubble('video', { url: 'https://youtu.be/abc', type: 'youtube', id: 'abc' }),
        mediaBubble('embed', { url: 'https://ex.com/form', height: 400 }),
      ],
      clientSideActions: [
        waitAction(1.5, hello.id),
        waitAction(2, image.id),
        waitAction(0.5, 'gone'),
        waitAction(0.25),
      ],
    });
    const answer = await client().turn(turnOf('Oi'));
    expect(answer.outputs).toEqual([
      { kind: 'wait', ms: 500 },
      { kind: 'wait', ms: 250 },
      { kind: 'text', text: 'Olá' },
      { kind: 'wait', ms: 1500 },
      { kind: 'media', mediaType: 'image', url: 'https://cdn.ex/a.png' },
      { kind: 'wait', ms: 2000 },
      { kind: 'media', mediaType: 'audio', url: 'https://cdn.ex/a.mp3' },
      { kind: 'media', mediaType: 'video', url: 'https://cdn.ex/v.mp4' },
      { kind: 'text', text: 'https://youtu.be/abc' },
      { kind: 'text', text: 'https://ex.com/form' },
    ]);
    expect(answer.finished).toBe(true);
  });

  it('turns control verbs in text bubbles and client-side Set variable into actions', async () => {
    fake.script({
      messages: [textBubble('Vou te transferir'), textBubble(' Transfer:12 '), richTextBubble([])],
      clientSideActions: [
        setVariableAction("'handoff'"),
        setVariableAction('vabc123', [{ id: 'vabc123', value: 'close' }]),
        setVariableAction('return "nada"'),
      ],
    });
    const answer = await client().turn(turnOf('Oi'));
    expect(answer.outputs).toEqual([{ kind: 'text', text: 'Vou te transferir' }]);
    expect(answer.actions).toEqual([{ verb: 'handoff' }, { verb: 'close' }, { verb: 'transfer', queueId: 12 }]);
  });

  it('starts anew, once, when the session is unknown or expired', async () => {
    fake.script({ input: textInput() });
    const first = await client().turn(turnOf('Oi'));
    fake.forgetSessions();
    fake.script({ messages: [textBubble('De novo')], input: textInput() });
    const again = await client().turn(turnOf('2', { sessionId: first.sessionId, choices: ['A', 'B'] }));
    expect(again.sessionId).toBe('sess2');
    expect(again.outputs).toEqual([{ kind: 'text', text: 'De novo' }]);
    expect(fake.requests.map((r) => r.kind)).toEqual(['start', 'continue', 'start']);
    // The restart carries the contact's own words: the old list is gone.
    expect(fake.requests[2].body.message).toEqual({ type: 'text', text: '2' });

    fake.forgetSessions();
    fake.requests.length = 0;
    fake.script({ status: 404, message: 'Typebot not found.' });
    const err = await botError(client().turn(turnOf('Oi', { sessionId: 'sess2' })));
    expect(err.status).toBe(404);
    expect(fake.requests.map((r) => r.kind)).toEqual(['continue', 'start']);
  });

  it('fails with BotError on a 5xx, without repeating the body', async () => {
    fake.script({ status: 500, message: 'secret-internal-detail' });
    const err = await botError(client().turn(turnOf('Oi')));
    expect(err.status).toBe(500);
    expect(err.message).not.toContain('secret');
  });

  it('fails with BotError within the timeout when Typebot never answers', async () => {
    fake.script({ hang: true });
    const started = Date.now();
    const err = await botError(createTypebotClient({ allowPrivate: true, timeoutMs: 150 }).turn(turnOf('Oi')));
    expect(err.message).toMatch(/150 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses a private address unless allowed', async () => {
    const err = await botError(createTypebotClient({ allowPrivate: false, timeoutMs: 2000 }).turn(turnOf('Oi')));
    expect(err.message).toMatch(/private/);
    expect(fake.requests).toHaveLength(0);
  });
});
