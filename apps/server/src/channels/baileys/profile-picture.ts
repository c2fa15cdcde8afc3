/** WhatsApp's profile pictures are JPEGs of at most 640×640 (some tens of KB): anything far larger is not one. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * WhatsApp answers a profile-picture query for someone without a picture, or who shows it only to their
 * contacts, with an error node: 404 `item-not-found` or 401 `not-authorized` (Baileys' Boom `data`).
 */
export function hasNoPicture(err: unknown): boolean {
  const code = (err as { data?: unknown } | null)?.data;
  return code === 404 || code === 401;
}

/**
 * The bytes behind a picture URL WhatsApp gave (its CDN, signed and short-lived): https only, no
 * redirects, a timeout and a size cap, so a slow or huge answer cannot hold the refresher.
 */
export async function downloadPicture(url: string, fetchImpl: typeof fetch = fetch): Promise<Buffer> {
  if (new URL(url).protocol !== 'https:') throw new Error('profile picture URL is not https');
  const res = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok || !res.body) throw new Error(`profile picture download answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > PICTURE_MAX_BYTES) {
    await res.body.cancel();
    throw new Error('profile picture too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > PICTURE_MAX_BYTES) throw new Error('profile picture too large');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
