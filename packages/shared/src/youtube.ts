/**
 * Help videos are YouTube videos (DOMAIN §15): the super user may paste a link or the id; only the
 * validated 11-character id is stored, and every URL the client builds comes from that id.
 */

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** Hosts whose links name a video; anything else (look-alike hosts included) is refused. */
const WATCH_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const EMBED_HOSTS = new Set([...WATCH_HOSTS, 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** `/embed/{id}` and `/shorts/{id}`, with an optional trailing slash. */
const PATH_ID = /^\/(embed|shorts)\/([^/]+)\/?$/;

function parseUrl(text: string): URL | null {
  // A link pasted without its scheme ("youtu.be/…", "www.youtube.com/…") is still a link.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The video id of a YouTube link (`watch?v=`, `youtu.be/`, `embed/`, `shorts/`) or of a bare
 * 11-character id; null for anything else.
 */
export function youtubeVideoId(input: string): string | null {
  const text = input.trim();
  if (VIDEO_ID.test(text)) return text;
  const url = parseUrl(text);
  if (!url || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (host === 'youtu.be') id = /^\/([^/]+)\/?$/.exec(url.pathname)?.[1] ?? null;
  else if (WATCH_HOSTS.has(host) && url.pathname.replace(/\/$/, '') === '/watch') id = url.searchParams.get('v');
  else if (EMBED_HOSTS.has(host)) {
    const match = PATH_ID.exec(url.pathname);
    // youtube-nocookie.com serves embeds only.
    if (match && (match[1] === 'embed' || WATCH_HOSTS.has(host))) id = match[2];
  }
  return id !== null && VIDEO_ID.test(id) ? id : null;
}

/** The video's thumbnail (480×360). */
export const youtubeThumbnailUrl = (id: string) => `https://i.ytimg.com/vi/${encodeURIComponent(id)}/hqdefault.jpg`;

/** The privacy-enhanced player: no cookies until the visitor plays the video. */
export const youtubeEmbedUrl = (id: string) => `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}`;
