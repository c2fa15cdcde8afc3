import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageKindOf, squareImage } from './images.js';

/** Avatars and contacts' pictures: only PNG and JPEG, by their bytes, stored as clean 256×256 squares. */

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.5 } } });

describe('imageKindOf', () => {
  it('reads PNG and JPEG by their magic bytes, whatever a name or type would claim', async () => {
    expect(imageKindOf(await photo(4, 4).png().toBuffer())).toBe('png');
    expect(imageKindOf(await photo(4, 4).jpeg().toBuffer())).toBe('jpeg');
    expect(imageKindOf(await photo(4, 4).gif().toBuffer())).toBeNull();
    expect(imageKindOf(await photo(4, 4).webp().toBuffer())).toBeNull();
    expect(imageKindOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageKindOf(Buffer.from([0x89, 0x50]))).toBeNull();
    expect(imageKindOf(Buffer.alloc(0))).toBeNull();
  });
});

describe('squareImage', () => {
  it('crops and scales a PNG to a 256×256 PNG that keeps its transparency', async () => {
    const out = await squareImage(await photo(600, 400).png().toBuffer());
    expect(out.ext).toBe('png');
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 256, 256, true]);
  });

  it('re-encodes a JPEG upright, without its metadata', async () => {
    // Stored sideways by the camera (EXIF orientation 6 = turn 90° clockwise), with a location.
    const sideways = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#3060c0' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Artist: 'Maria', Copyright: 'GPS -23.55,-46.63' } } })
      .toBuffer();
    expect((await sharp(sideways).metadata()).exif).toBeDefined();
    const out = await squareImage(sideways, 64);
    expect(out.ext).toBe('jpg');
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 64]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(out.data.includes('Maria')).toBe(false);
  });

  it('refuses what is not a PNG or JPEG, a broken file, and a decompression bomb', async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const png = await photo(50, 50).png().toBuffer();
    for (const bad of [
      await photo(8, 8).gif().toBuffer(),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      Buffer.concat([png.subarray(0, 8), Buffer.from('not really a png')]),
      png.subarray(0, png.length / 2),
      bomb,
    ]) {
      await expect(squareImage(bad)).rejects.toMatchObject({ code: 'ERR_INVALID_IMAGE', status: 415 });
    }
  });
});
