import { fetchLatestWaWebVersion, type WAVersion } from '@whiskeysockets/baileys';

/** WhatsApp Web moves on every few days; asking once every few hours is plenty. */
const KEEP_MS = 6 * 3_600_000;
const ASK_TIMEOUT_MS = 5_000;

let known: { version: WAVersion; at: number } | undefined;

/**
 * The WhatsApp Web version a socket announces: the one web.whatsapp.com serves now, kept for a few
 * hours. WhatsApp refuses versions too far behind, and the one bundled with Baileys ages with the
 * release; when the current one cannot be read (no network), undefined leaves Baileys' own.
 */
export async function currentWaVersion(): Promise<WAVersion | undefined> {
  if (known && Date.now() - known.at < KEEP_MS) return known.version;
  const latest = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
  if (!latest.isLatest) return undefined;
  known = { version: latest.version, at: Date.now() };
  return latest.version;
}
