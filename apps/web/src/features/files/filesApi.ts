import type { FileList, FileListsPage } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export interface FileListBody {
  name: string;
  message: string;
  /** The whole list of rows: with `id` an existing option, without it a new one. */
  options: { id?: number; name: string }[];
}

export const filesApi = {
  list: (searchParam: string, pageNumber: number) => http.get<FileListsPage>('/files/', { searchParam, pageNumber }),
  create: (body: FileListBody) => http.post<FileList>('/files', body),
  update: (id: number, body: FileListBody) => http.put<FileList>(`/files/${id}`, body),
  remove: (id: number) => http.delete(`/files/${id}`),
  /** The spec's form, repeated per file: the n-th `files` goes to the option of the n-th `id`. */
  uploadList: (list: FileList, uploads: { optionId: number; file: File }[]) => {
    const form = new FormData();
    for (const { optionId, file } of uploads) {
      form.append('fileId', String(list.id));
      form.append('typeArch', 'fileList');
      form.append('files', file, file.name);
      form.append('mediaType', file.type);
      form.append('name', list.options.find((o) => o.id === optionId)?.name ?? file.name);
      form.append('id', String(optionId));
    }
    return http.postForm<FileList>(`/files/uploadList/${list.id}`, form);
  },
};

/** Every file list of the company, whole (a ticket's "send a file list" picker), read while `enabled`. */
export function useAllFileLists(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.fileLists.all, 'all'] as const,
    queryFn: async () => {
      const all: FileList[] = [];
      for (let page = 1; ; page++) {
        const reply = await filesApi.list('', page);
        all.push(...reply.files);
        if (!reply.hasMore || reply.files.length === 0) return all;
      }
    },
    enabled,
    staleTime: 0,
  });
}
