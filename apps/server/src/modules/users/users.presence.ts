import { clientRoomEvents } from '@balcao/shared';
import type { Db } from '../../db/client.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { emitUser, findUser, setPresence } from './users.service.js';

/** The online flag follows the user's sockets: on at connect and heartbeat, off with the last socket. */
export function registerPresence(realtime: Realtime, db: Db): void {
  const publish = async (caller: { companyId: number; userId: number }, online: boolean) => {
    if (!(await setPresence(db, caller, online))) return;
    const user = await findUser(db, caller.companyId, caller.userId);
    emitUser(realtime, caller.companyId, caller.userId, { action: 'update', user });
  };
  realtime.onConnection((caller, socket) => {
    socket.on(clientRoomEvents.userStatus, () => {
      publish(caller, true).catch(() => {});
    });
    return publish(caller, true);
  });
  realtime.onDisconnect((caller, last) => (last ? publish(caller, false) : undefined));
}
