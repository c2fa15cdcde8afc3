import { isJidGroup, isLidUser, isPnUser, jidDecode, type WAMessageKey } from '@whiskeysockets/baileys';

/** The digits before the `@` (and before a `:device` suffix). */
export const userOf = (jid: string | null | undefined): string | undefined => jidDecode(jid ?? undefined)?.user;

/**
 * Who a jid pair is: WhatsApp 7 addresses people by LID (`…@lid`) and gives the phone-number jid,
 * when it knows it, as the alternative (`remoteJidAlt`/`participantAlt`, older `senderPn`).
 */
export function identityOf(...jids: (string | null | undefined)[]): { pn?: string; lid?: string } {
  const pnJid = jids.find((j) => j && isPnUser(j));
  const lidJid = jids.find((j) => j && isLidUser(j));
  return { pn: userOf(pnJid), lid: userOf(lidJid) };
}

/** The contact of a one-to-one message: phone digits when known, else the LID digits. */
export function contactOf(key: WAMessageKey): { number: string; lid?: string } | undefined {
  const legacy = (key as { senderPn?: string }).senderPn;
  const { pn, lid } = identityOf(key.remoteJid, key.remoteJidAlt, legacy);
  const number = pn ?? lid;
  return number ? { number, lid } : undefined;
}

/** The sender inside a group: phone digits when known, else the LID digits. */
export function participantOf(key: WAMessageKey): string | undefined {
  const { pn, lid } = identityOf(key.participant, key.participantAlt);
  return pn ?? lid ?? userOf(key.participant);
}

export const isGroupJid = (jid: string | null | undefined) => Boolean(jid && isJidGroup(jid));
