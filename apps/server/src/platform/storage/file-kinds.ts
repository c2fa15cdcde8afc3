import path from 'node:path';
import { imageKindOf } from './images.js';

export interface FileKind {
  /** The MIME type the bytes show, stored and sent instead of the client's claim. */
  mime: string;
  /** The extension of the server key, so `/media/…` serves the file by what it is. */
  ext: string;
}

/** Names a recipient's computer would run: refused whatever the bytes look like. */
const RUNNABLE_NAMES = new Set(
  'exe com scr bat cmd ps1 psm1 vbs vbe js jse mjs wsf wsh hta msi msix msp appx apk ipa jar xpi dll cpl lnk sh bash zsh run bin app dmg pkg deb rpm reg inf html htm xhtml svg'.split(
    ' ',
  ),
);

/** Zip containers that are documents, by the uploaded name's extension. */
const ZIP_DOCUMENTS: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

/** Legacy Office files share one container format (as does `.msi`, refused above by its name). */
const CFB_DOCUMENTS: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

const startsWith = (data: Buffer, bytes: number[] | string, at = 0) => {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return data.length >= at + sig.length && data.subarray(at, at + sig.length).equals(sig);
};

const nameExt = (fileName: string) => path.extname(fileName).slice(1).toLowerCase();

/** Executable formats (PE, ELF, Mach-O, Java classes / fat binaries) and scripts with a shebang. */
function isExecutable(data: Buffer): boolean {
  return (
    startsWith(data, 'MZ') ||
    startsWith(data, [0x7f, 0x45, 0x4c, 0x46]) ||
    [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
    ].some((sig) => startsWith(data, sig)) ||
    startsWith(data, '#!')
  );
}

/** Plain UTF-8 text without control characters other than tab, newlines and form feed. */
function isText(data: Buffer): boolean {
  if (data.length === 0) return false;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is looked for
    return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
  } catch {
    return false;
  }
}

function mediaKindOf(data: Buffer): FileKind | null {
  const image = imageKindOf(data);
  if (image === 'png') return { mime: 'image/png', ext: '.png' };
  if (image === 'jpeg') return { mime: 'image/jpeg', ext: '.jpg' };
  if (startsWith(data, 'GIF87a') || startsWith(data, 'GIF89a')) return { mime: 'image/gif', ext: '.gif' };
  if (startsWith(data, 'RIFF') && startsWith(data, 'WEBP', 8)) return { mime: 'image/webp', ext: '.webp' };
  if (startsWith(data, 'RIFF') && startsWith(data, 'WAVE', 8)) return { mime: 'audio/wav', ext: '.wav' };
  if (startsWith(data, '%PDF-')) return { mime: 'application/pdf', ext: '.pdf' };
  if (startsWith(data, 'ftyp', 4)) {
    const brand = data.subarray(8, 12).toString('latin1');
    if (brand === 'M4A ') return { mime: 'audio/mp4', ext: '.m4a' };
    if (brand.startsWith('3g')) return { mime: 'video/3gpp', ext: '.3gp' };
    if (brand === 'qt  ') return { mime: 'video/quicktime', ext: '.mov' };
    return { mime: 'video/mp4', ext: '.mp4' };
  }
  if (startsWith(data, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: 'video/webm', ext: '.webm' };
  if (startsWith(data, 'OggS')) return { mime: 'audio/ogg', ext: '.ogg' };
  if (startsWith(data, 'ID3')) return { mime: 'audio/mpeg', ext: '.mp3' };
  if (data.length > 1 && data[0] === 0xff && (data[1] === 0xf1 || data[1] === 0xf9))
    return { mime: 'audio/aac', ext: '.aac' };
  // An MPEG audio frame header: 11 sync bits, a layer other than "reserved".
  if (data.length > 1 && data[0] === 0xff && (data[1] & 0xe0) === 0xe0 && (data[1] & 0x06) !== 0)
    return { mime: 'audio/mpeg', ext: '.mp3' };
  if (startsWith(data, 'Rar!', 0) && startsWith(data, [0x1a, 0x07], 4))
    return { mime: 'application/vnd.rar', ext: '.rar' };
  if (startsWith(data, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))
    return { mime: 'application/x-7z-compressed', ext: '.7z' };
  return null;
}

/**
 * What a file is by its bytes (DOMAIN §15): images, audio, video, PDF, Office documents, archives
 * and plain text. Null for executables, for runnable names (the original name travels to the
 * recipient) and for any binary not recognised: the caller refuses those.
 */
export function fileKindOf(data: Buffer, fileName: string): FileKind | null {
  const ext = nameExt(fileName);
  if (RUNNABLE_NAMES.has(ext) || isExecutable(data)) return null;
  const media = mediaKindOf(data);
  if (media) return media;
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) {
    const document = ZIP_DOCUMENTS[ext];
    return document ? { mime: document, ext: `.${ext}` } : { mime: 'application/zip', ext: '.zip' };
  }
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const document = CFB_DOCUMENTS[ext];
    return document ? { mime: document, ext: `.${ext}` } : null;
  }
  if (isText(data)) return ext === 'csv' ? { mime: 'text/csv', ext: '.csv' } : { mime: 'text/plain', ext: '.txt' };
  return null;
}
