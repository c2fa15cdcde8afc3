import type { SandboxInbound, sandboxOutboundItem } from '@balcao/shared';
import type { z } from 'zod';
import { http } from '../../api/client';

export type SandboxOutboundItem = z.infer<typeof sandboxOutboundItem>;

/** The sandbox contract: play a contact's phone on a sandbox connection (admins). */
export const sandboxApi = {
  /** The simulated phone scans the QR code: the connection becomes CONNECTED. */
  scan: (whatsappId: number) => http.post<{ message: string }>(`/sandbox/${whatsappId}/scan`),
  /** The contact writes to the company. */
  inbound: (whatsappId: number, body: SandboxInbound) =>
    http.post<{ providerId: string }>(`/sandbox/${whatsappId}/inbound`, body),
  /** What the contact's phone received from the company, oldest first. */
  outbound: (whatsappId: number, number: string) =>
    http.get<SandboxOutboundItem[]>(`/sandbox/${whatsappId}/outbound`, { number }),
  /** The phone marks a message of the company received (2) or read (3). */
  ack: (whatsappId: number, providerId: string, ack: 2 | 3) =>
    http.post<{ message: string }>(`/sandbox/${whatsappId}/ack`, { providerId, ack }),
};

/** Sandbox numbers: 8 to 20 digits. */
export const SANDBOX_NUMBER = /^\d{8,20}$/;

/** Polling interval of the outbound list. */
export const OUTBOUND_POLL_MS = 1_500;

export interface SandboxMedia {
  fileName: string;
  mimetype: string;
  base64: string;
}

/** Reads a file as base64 (without the data-URL prefix) for the inbound call. */
export function readFileAsBase64(file: File): Promise<SandboxMedia> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve({
        fileName: file.name,
        mimetype: file.type || 'application/octet-stream',
        base64: url.slice(url.indexOf(',') + 1),
      });
    };
    reader.readAsDataURL(file);
  });
}
