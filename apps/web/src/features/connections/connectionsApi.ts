import type { Whatsapp, WhatsappInput, WhatsappUpdate } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export const connectionsApi = {
  list: () => http.get<Whatsapp[]>('/whatsapp', { session: 0 }),
  show: (id: number) => http.get<Whatsapp>(`/whatsapp/${id}`, { session: 0 }),
  create: (body: WhatsappInput) => http.post<Whatsapp>('/whatsapp', body),
  update: (id: number, body: WhatsappUpdate) => http.put<Whatsapp>(`/whatsapp/${id}`, body),
  remove: (id: number) => http.delete(`/whatsapp/${id}`),
  /** Starts the session ("Tentar novamente"; the sandbox goes OPENING → qrcode). */
  startSession: (id: number) => http.post(`/whatsappsession/${id}`),
  /** Logs out and starts again: a new QR code ("Novo QR CODE"). */
  newQrCode: (id: number) => http.put(`/whatsappsession/${id}`),
  disconnect: (id: number) => http.delete(`/whatsappsession/${id}`),
};

/** The company's connections (GET /whatsapp), kept live by `useConnectionsRealtime`. */
export function useWhatsapps(enabled = true) {
  return useQuery({ queryKey: queryKeys.whatsapps, queryFn: connectionsApi.list, enabled });
}
