import { io, type Socket } from 'socket.io-client';
import { backendUrl } from './config';

/** The live channel, authenticated with the current access token. */
export function connectSocket(token: string): Socket {
  return io(backendUrl(), { auth: { token }, transports: ['websocket', 'polling'] });
}
