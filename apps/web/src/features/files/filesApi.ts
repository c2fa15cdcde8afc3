import type { FileList, FileListsPage } from '@balcao/shared';
import { http } from '../../api/client';

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
