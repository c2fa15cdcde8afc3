import type { Socket } from 'socket.io-client';
import { backendUrl } from './config';

/**
 * The live channel, authenticated with the current access token. The client library loads with the
 * first connection (after sign-in), not with the login page.
 */
export async function connectSocket(token: string): Promise<Socket> {
  const { io } = await import('socket.io-client');
  return io(backendUrl(), { auth: { token }, transports: ['websocket', 'polling'] });
}
