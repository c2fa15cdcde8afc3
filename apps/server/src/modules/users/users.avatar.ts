import type { User } from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { squareImage } from '../../platform/storage/images.js';
import { keyOfMediaUrl, mediaUrlOf, type Storage } from '../../platform/storage/storage.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { users } from './users.schema.js';
import { emitUser, findUser } from './users.service.js';

/**
 * A user's avatar (beyond the spec: `POST` / `DELETE /users/{id}/avatar`), with the rule of
 * `PUT /users/{id}`: one's own, or, for an admin, any user of the company except a super user
 * (whose avatar only a super user sets). Another company's user is not found.
 *
 * The avatar is stored under a server key and served by `/media` to the company's signed-in members
 * only, like every uploaded file (DOMAIN §11), not under `/public`: colleagues see it (the web client
 * fetches it with its token, as it does message media), a copied link shows nothing to anyone else,
 * and a removed or replaced avatar is gone at once, since its file is deleted.
 */
export async function avatarEditable(ctx: ServiceContext, id: number): Promise<User> {
  if (!isAdmin(ctx) && id !== ctx.userId) throw new AppError('ERR_NO_PERMISSION');
  const user = await findUser(ctx.db, ctx.companyId, id);
  if (user.super && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  return user;
}

/** Sets the avatar URL and answers the previous one, read under the same row lock (two uploads at once lose no file). */
async function swapAvatar(db: Db, companyId: number, id: number, avatar: string | null) {
  return db.transaction(async (tx) => {
    const where = and(eq(users.id, id), eq(users.companyId, companyId));
    const [row] = await tx.select({ avatar: users.avatar }).from(users).where(where).for('update');
    if (!row) throw new AppError('ERR_NO_USER_FOUND');
    await tx.update(users).set({ avatar, updatedAt: new Date() }).where(where);
    return row.avatar;
  });
}

/** A PNG or JPEG (by its bytes), squared to 256×256 and re-encoded; `null` removes the avatar. */
export async function setUserAvatar(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  file: { data: Buffer } | null,
): Promise<User> {
  await avatarEditable(ctx, id);
  let key: string | null = null;
  if (file) {
    const image = await squareImage(file.data);
    key = (await storage.put(ctx.companyId, image.data, `avatar.${image.ext}`)).key;
  }
  let previous: string | null;
  try {
    previous = await swapAvatar(ctx.db, ctx.companyId, id, key && mediaUrlOf(key));
  } catch (err) {
    // The user went away meanwhile: nothing refers to the new file.
    if (key) await storage.remove(key);
    throw err;
  }
  const previousKey = keyOfMediaUrl(previous);
  if (previousKey) await storage.remove(previousKey);
  const user = await findUser(ctx.db, ctx.companyId, id);
  emitUser(ctx.realtime, ctx.companyId, id, { action: 'update', user });
  return user;
}
