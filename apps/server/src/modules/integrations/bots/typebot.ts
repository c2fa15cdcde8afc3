import { guardedFetch, OutboundError, type OutboundResponse } from '../../../platform/http/outbound.js';
import {
  type BotAnswer,
  type BotClient,
  BotError,
  type BotOutput,
  type BotTurn,
  type ControlVerb,
  parseControlVerb,
} from './bot.js';

/**
 * Typebot's chat API v1 (DOMAIN §17): `startChat` with the contact's first message and prefilled
 * variables, then `continueChat` on the session it returns. Bubbles become WhatsApp text (rich text
 * to `*bold*` `_italic_` `~strike~`), media and pauses; a choice input becomes a numbered list the
 * contact may answer by number. A control verb in a text bubble or a client-side Set variable is an
 * action, never shown to the contact.
 */

export interface TypebotOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

/** Plate's nodes, as Typebot sends rich text: elements with children, leaves with text and marks. */
interface RichNode {
  type?: string;
  text?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  children?: RichNode[];
}

interface Bubble {
  id?: string;
  type?: string;
  content?: { type?: string; richText?: RichNode[]; url?: string };
}

interface ClientSideAction {
  type?: string;
  lastBubbleBlockId?: string;
  wait?: { secondsToWaitFor?: number };
  setVariable?: { scriptToExecute?: { content?: string; args?: { id?: string; value?: unknown }[] } };
}

interface ChatResponse {
  sessionId?: string;
  messages?: Bubble[];
  input?: { type?: string; items?: { content?: string; title?: string }[] };
  clientSideActions?: ClientSideAction[];
}

const INLINE = new Set(['a', 'inline-variable']);

const isInline = (node: RichNode) => typeof node.text === 'string' || INLINE.has(node.type ?? '');

/** WhatsApp only renders a marker that touches the text, so spaces stay outside it. */
function marked(leaf: RichNode): string {
  const text = leaf.text ?? '';
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? ['', '', text, ''];
  if (!core) return text;
  let out = core;
  if (leaf.strikethrough) out = `~${out}~`;
  if (leaf.italic) out = `_${out}_`;
  if (leaf.bold) out = `*${out}*`;
  return `${lead}${out}${trail}`;
}

function inline(node: RichNode): string {
  if (typeof node.text === 'string') return marked(node);
  const inner = (node.children ?? []).map(inline).join('');
  if (node.type !== 'a' || !node.url) return inner;
  // WhatsApp has no link syntax: the address itself is what becomes clickable.
  return inner.trim() && inner.trim() !== node.url ? `${inner} (${node.url})` : node.url;
}

function lines(nodes: RichNode[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    if (node.type === 'ol' || node.type === 'ul') {
      (node.children ?? []).forEach((item, i) => {
        const [first = '', ...rest] = lines(item.children ?? []);
        out.push(`${node.type === 'ol' ? `${i + 1}.` : '-'} ${first}`, ...rest.map((line) => `   ${line}`));
      });
    } else if (isInline(node)) out.push(inline(node));
    else if ((node.children ?? []).every(isInline)) out.push((node.children ?? []).map(inline).join(''));
    else out.push(...lines(node.children ?? []));
  }
  return out;
}

/** Typebot's rich text (Plate) as WhatsApp-formatted text. */
export function richTextToWhatsApp(richText: RichNode[]): string {
  return lines(richText).join('\n').trim();
}

/** The value a client-side Set variable assigns, when it is a plain literal or one variable. */
function assignedValue(action: ClientSideAction): string | null {
  const script = action.setVariable?.scriptToExecute;
  const code = (script?.content ?? '')
    .trim()
    .replace(/^return\s+/, '')
    .replace(/;$/, '')
    .trim();
  const arg = script?.args?.find((a) => a.id === code);
  if (arg) return typeof arg.value === 'string' ? arg.value : null;
  const literal = /^(['"`])(.*)\1$/s.exec(code);
  return literal ? literal[2] : code;
}

function bubbleOutput(bubble: Bubble): BotOutput | null {
  const url = bubble.content?.url;
  switch (bubble.type) {
    case 'text': {
      const text = richTextToWhatsApp(bubble.content?.richText ?? []);
      return text ? { kind: 'text', text } : null;
    }
    case 'image':
    case 'audio':
      return url ? { kind: 'media', mediaType: bubble.type, url } : null;
    case 'video':
      // YouTube, Vimeo… are pages, not files: the contact gets the link.
      if (!url) return null;
      return !bubble.content?.type || bubble.content.type === 'url'
        ? { kind: 'media', mediaType: 'video', url }
        : { kind: 'text', text: url };
    case 'embed':
      return url ? { kind: 'text', text: url } : null;
    default:
      return null;
  }
}

function answerOf(raw: ChatResponse, sessionId: string | null): BotAnswer {
  const outputs: BotOutput[] = [];
  const actions: ControlVerb[] = [];
  const messages = raw.messages ?? [];
  const bubbleIds = new Set(messages.map((m) => m.id));
  // Typebot's own client runs an action after the bubble it names, the others before any bubble.
  const placeOf = (action: ClientSideAction) =>
    action.lastBubbleBlockId && bubbleIds.has(action.lastBubbleBlockId) ? action.lastBubbleBlockId : undefined;

  const runActions = (after: string | undefined) => {
    for (const action of raw.clientSideActions ?? []) {
      if (placeOf(action) !== after) continue;
      const seconds = action.wait?.secondsToWaitFor;
      if (action.type === 'wait' && typeof seconds === 'number' && seconds > 0)
        outputs.push({ kind: 'wait', ms: Math.round(seconds * 1000) });
      if (action.type === 'setVariable') {
        const verb = parseControlVerb(assignedValue(action) ?? '');
        if (verb) actions.push(verb);
      }
    }
  };

  runActions(undefined);
  for (const bubble of messages) {
    const output = bubbleOutput(bubble);
    const verb = output?.kind === 'text' ? parseControlVerb(output.text) : null;
    if (verb) actions.push(verb);
    else if (output) outputs.push(output);
    if (bubble.id) runActions(bubble.id);
  }

  const input = raw.input;
  const choices =
    input?.type === 'choice input' || input?.type === 'picture choice input'
      ? (input.items ?? []).map((item) => (item.content ?? item.title ?? '').trim()).filter(Boolean)
      : [];
  if (choices.length) outputs.push({ kind: 'text', text: choices.map((label, i) => `${i + 1} - ${label}`).join('\n') });

  return {
    outputs,
    sessionId: raw.sessionId ?? sessionId,
    actions,
    finished: !input,
    ...(choices.length ? { pendingChoices: choices } : {}),
  };
}

const textOf = (turn: BotTurn) => (turn.message.text || turn.message.transcript || '').trim();

/** What continueChat receives: the label when the contact answered the numbered list by number or in any casing. */
function replyText(turn: BotTurn): string {
  const text = textOf(turn);
  const choices = turn.choices ?? [];
  const n = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (n >= 1 && n <= choices.length) return choices[n - 1];
  return choices.find((label) => label.toLowerCase() === text.toLowerCase()) ?? text;
}

export function createTypebotClient(opts: TypebotOptions): BotClient {
  async function post(url: string, body: unknown): Promise<OutboundResponse> {
    try {
      return await guardedFetch(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        opts,
      );
    } catch (err) {
      if (err instanceof OutboundError) throw new BotError(err.message);
      throw err;
    }
  }

  function parsed(res: OutboundResponse): ChatResponse {
    // The error body is not repeated: the message of a failed call never carries what the service echoed.
    if (!res.ok) throw new BotError(`HTTP ${res.status}`, res.status);
    try {
      return res.json() as ChatResponse;
    } catch {
      throw new BotError('answer is not JSON', res.status);
    }
  }

  /** Typebot answers 404 for a session it does not know or has expired (some versions 400). */
  function sessionGone(res: OutboundResponse): boolean {
    if (res.status === 404) return true;
    return res.status === 400 && /session/i.test(res.text());
  }

  return {
    async turn(turn) {
      const base = turn.integration.url.replace(/\/+$/, '');
      // A new session has no list pending: the contact's words go as they are.
      const start = async () => {
        const raw = parsed(
          await post(`${base}/api/v1/typebots/${encodeURIComponent(turn.integration.typebotSlug)}/startChat`, {
            message: { type: 'text', text: textOf(turn) },
            isStreamEnabled: false,
            prefilledVariables: { number: turn.contact.number, name: turn.contact.name, ticketId: turn.ticketId },
          }),
        );
        if (typeof raw.sessionId !== 'string' || !raw.sessionId)
          throw new BotError('startChat answer without sessionId');
        return answerOf(raw, null);
      };
      if (!turn.sessionId) return start();

      const res = await post(`${base}/api/v1/sessions/${encodeURIComponent(turn.sessionId)}/continueChat`, {
        message: { type: 'text', text: replyText(turn) },
      });
      if (sessionGone(res)) return start();
      return answerOf(parsed(res), turn.sessionId);
    },
  };
}
