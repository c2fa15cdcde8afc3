/** A received location as the providers give it. */
export interface LocationInput {
  latitude: number | null | undefined;
  longitude: number | null | undefined;
  name?: string | null;
  address?: string | null;
  /** A preview image: an http(s) URL or a `data:image/…` URL; anything else is dropped. */
  image?: string | null;
}

/** The three parts of a location message body. */
export interface LocationParts {
  image: string;
  link: string;
  description: string;
}

const IMAGE = /^(https?:\/\/|data:image\/)[^\s|]+$/;

/** Google Maps centred on the point at street zoom (the comma percent-encoded, as browsers send it). */
export function mapsLink(latitude: number, longitude: number): string {
  return `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`;
}

const isCoordinate = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

// The body is split on `|`, so a pipe in a name would shift the parts; line breaks would break previews.
const clean = (text: string | null | undefined) =>
  (text ?? '')
    .replace(/\|/g, '/')
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();

/** The spec's location body (part 1 §3): `image|link|description`, image usually empty. */
export function locationBody(input: LocationInput): string {
  const { latitude, longitude } = input;
  const link = isCoordinate(latitude) && isCoordinate(longitude) ? mapsLink(latitude, longitude) : '';
  const parts = [clean(input.name), clean(input.address)].filter(Boolean);
  // Some providers repeat the name as the address.
  const description = [...new Set(parts)].join(', ');
  const image = input.image && IMAGE.test(input.image) ? input.image : '';
  return `${image}|${link}|${description}`;
}

/** The parts of a location body; the description is optional and keeps any later pipes. */
export function parseLocation(body: string): LocationParts {
  const [image = '', link = '', ...rest] = body.split('|');
  return { image, link, description: rest.join('|') };
}

const BODY = /^(?:(?:https?:\/\/|data:image\/)[^\s|]*)?\|https?:\/\/[^\s|]+(?:\|[^\n]*)?$/;

/**
 * Whether a text is a location body. Ticket previews only carry the body, not the message type;
 * the shape (empty or image first part, then a URL) does not occur in typed text in practice.
 */
export const isLocationBody = (text: string) => BODY.test(text);
