import { AppError } from '../errors/app-error.js';

export type ImageKind = 'png' | 'jpeg';

/** What the first bytes say the file is: only PNG and JPEG are read as pictures. */
export function imageKindOf(data: Buffer): ImageKind | null {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  return null;
}

/** Side of the stored avatars and contact pictures: sharp at twice the largest place they show (96 px). */
export const PICTURE_SIZE = 256;
/** A decompression bomb (a small file of huge dimensions) is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * A picture re-encoded as a `size`×`size` square (cropped to the centre, turned by its EXIF
 * orientation), in its own format, so PNG keeps its transparency. Only PNG and JPEG reach the decoder,
 * checked by their magic bytes (sharp would read SVG, TIFF, HEIF… too); re-encoding drops the
 * metadata (EXIF, GPS) and anything hidden after the image. ERR_INVALID_IMAGE for anything else.
 */
export async function squareImage(data: Buffer, size = PICTURE_SIZE): Promise<{ data: Buffer; ext: 'png' | 'jpg' }> {
  const kind = imageKindOf(data);
  if (!kind) throw new AppError('ERR_INVALID_IMAGE');
  // sharp (libvips) costs ~15 MiB: loaded by the first picture, not at boot.
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .autoOrient()
      .resize(size, size, { fit: 'cover' });
    return kind === 'png'
      ? { data: await image.png({ compressionLevel: 9 }).toBuffer(), ext: 'png' }
      : { data: await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer(), ext: 'jpg' };
  } catch (err) {
    throw Object.assign(new AppError('ERR_INVALID_IMAGE'), { cause: err });
  }
}
