import type { AssistantSuggestionReply } from '@balcao/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { messages } from '../messages/messages.schema.js';
import { getTicket } from '../tickets/tickets.service.js';
import { type AssistantDeps, assertSignedIn, completeWithQuota } from './assistant.service.js';

/**
 * Beyond the spec (DOMAIN §19): in a ticket the agent may see, the assistant summarises the
 * conversation, suggests a reply or rephrases the draft. The text is returned for the agent to
 * review, never sent; it uses the caller's personal token and counts against the same daily quota.
 */
export type TicketHelp = 'summary' | 'suggestion' | 'rephrase';

/** How much of the conversation the model reads: the newest messages, within both bounds. */
const CONTEXT = { messages: 40, chars: 12_000 } as const;

const instructions: Record<TicketHelp, string> = {
  summary:
    'Você ajuda um atendente de uma central de atendimento por WhatsApp. Resuma a conversa a seguir em ' +
    'português, em poucas frases objetivas: o que o cliente quer, o que já foi feito e o que falta fazer.',
  suggestion:
    'Você ajuda um atendente de uma central de atendimento por WhatsApp. Sugira a próxima resposta do ' +
    'atendente ao cliente na conversa a seguir: educada, curta e no idioma do cliente. Responda apenas com o ' +
    'texto da mensagem.',
  rephrase:
    'Você ajuda um atendente de uma central de atendimento por WhatsApp. Reescreva o rascunho do atendente ' +
    'de forma clara, educada e profissional, mantendo o sentido e o idioma, levando em conta a conversa. ' +
    'Responda apenas com o texto reescrito.',
};

function lineOf(m: { body: string; fromMe: boolean; mediaType: string; transcript: string | null }): string {
  const text = m.mediaType === 'audio' ? (m.transcript ?? '[áudio]') : m.body || `[${m.mediaType}]`;
  return `${m.fromMe ? 'Atendente' : 'Cliente'}: ${text}`;
}

/** The ticket's newest messages as a transcript, oldest first; the ticket must be visible to the caller. */
async function conversationOf(ctx: ServiceContext, ticketId: number): Promise<string> {
  await getTicket(ctx, ticketId);
  const rows = await ctx.db
    .select({
      body: messages.body,
      fromMe: messages.fromMe,
      mediaType: messages.mediaType,
      transcript: messages.transcript,
    })
    .from(messages)
    .where(and(eq(messages.companyId, ctx.companyId), eq(messages.ticketId, ticketId), eq(messages.isDeleted, false)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(CONTEXT.messages);
  const lines: string[] = [];
  let used = 0;
  for (const row of rows) {
    const line = lineOf(row);
    if (used + line.length > CONTEXT.chars) break;
    lines.push(line);
    used += line.length;
  }
  return lines.reverse().join('\n');
}

export async function helpWithTicket(
  ctx: ServiceContext,
  deps: AssistantDeps,
  ticketId: number,
  help: TicketHelp,
  draft?: string,
): Promise<AssistantSuggestionReply> {
  const conversation = await conversationOf(ctx, ticketId);
  await assertSignedIn(ctx);
  const content =
    help === 'rephrase'
      ? `Conversa:\n${conversation || '(sem mensagens)'}\n\nRascunho do atendente:\n${draft ?? ''}`
      : `Conversa:\n${conversation || '(sem mensagens)'}`;
  const answer = await completeWithQuota(ctx, deps, [
    { role: 'system', content: instructions[help] },
    { role: 'user', content },
  ]);
  return { text: answer.content.trim(), usage: answer.usage };
}
