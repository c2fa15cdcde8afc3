import { companyEvent, type FileListEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyFileListEvent, type FileListsData } from './filesCache';

/** Keeps the file lists in step with `company-{id}-file`. */
export function useFilesRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<FileListEvent>(companyEvent.file(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<FileListsData>({ queryKey: queryKeys.fileLists.lists })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyFileListEvent(data, event, searchParam));
    }
  });
}
