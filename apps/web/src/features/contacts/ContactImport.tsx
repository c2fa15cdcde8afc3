import { type ContactImport, type ContactImportEvent, companyEvent } from '@balcao/shared';
import FileUpload from '@mui/icons-material/FileUpload';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { http } from '../../api/client';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { toastError } from '../../components/toastError';
import { saveBlob } from './csv';

/** The import's progress as a fraction (0–100) of its rows. */
export const importPercent = (i: Pick<ContactImport, 'processed' | 'total'>) =>
  i.total > 0 ? Math.min(100, Math.round((i.processed / i.total) * 100)) : 0;

/**
 * An import button (DOMAIN §12): uploads the file, then follows the background job through
 * `company-{id}-contactImport` (a bar), and offers the rejected rows file at the end.
 */
export function ContactImportButton({ uploadPath, onDone }: { uploadPath: string; onDone: () => void }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState<ContactImport | null>(null);

  useSocketEvent<ContactImportEvent>(companyEvent.contactImport(me.companyId), (event) => {
    if (!current || event.import.id !== current.id) return;
    setCurrent(event.import);
    if (event.action === 'done') {
      toast.success(t('contactImport.done', { imported: event.import.imported, rejected: event.import.rejected }));
      onDone();
    }
    if (event.action === 'failed') toast.error(t(`errors.${event.import.error ?? 'ERR_IMPORT_FILE_UNREADABLE'}`));
  });

  const upload = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    try {
      setCurrent(await http.postForm<ContactImport>(uploadPath, form));
    } catch (err) {
      toastError(err);
    }
  };

  const running = current !== null && (current.status === 'pending' || current.status === 'running');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xls,.xlsx,.csv"
        data-testid="contact-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button
        variant="outlined"
        startIcon={<FileUpload />}
        disabled={running}
        onClick={() => input.current?.click()}
        data-testid="contact-import"
      >
        {t('contactImport.import')}
      </Button>
      {running && current && (
        <Stack sx={{ minWidth: 140 }} data-testid="contact-import-progress">
          <LinearProgress variant="determinate" value={importPercent(current)} />
          <Typography variant="caption">
            {t('contactImport.progress', { processed: current.processed, total: current.total })}
          </Typography>
        </Stack>
      )}
      {current?.status === 'done' && current.rejected > 0 && (
        <Link
          component="button"
          type="button"
          data-testid="contact-import-rejected"
          onClick={() =>
            void http
              .getBlob(`/contacts/import/${current.id}/rejected`)
              .then((blob) => saveBlob(blob, `rejeitados-${current.id}.csv`), toastError)
          }
        >
          {t('contactImport.rejected', { count: current.rejected })}
        </Link>
      )}
    </Stack>
  );
}
