import type { Provider, Whatsapp } from '@balcao/shared';

/** The one button that brings a never-connected connection up, by provider (a QR code to read, a Cloud API login, a sandbox). */
export const FIRST_ACTION: Record<Provider, 'qrcode' | 'connect' | 'start'> = {
  beta: 'qrcode',
  cloud: 'connect',
  sandbox: 'start',
};

/** A connection that never had a session: disconnected and no number yet, so there is nothing to "try again". */
export function isNewConnection(whatsapp: Pick<Whatsapp, 'status' | 'number'>): boolean {
  return whatsapp.status === 'DISCONNECTED' && !whatsapp.number;
}
