import Cancel from '@mui/icons-material/Cancel';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef } from 'react';

/** What `useMediaRecordForm` keeps of the attachment; spread it into `MediaAttachment`. */
export interface MediaAttachmentState {
  /** Picked but not uploaded yet: it goes up when the record is saved. */
  pendingFile: File | null;
  /** The attachment already stored with the record. */
  mediaName: string | null;
  onPick: (file: File | undefined) => void;
  onRemovePending: () => void;
  onRemoveStored: () => void;
  /** The stored attachment is being removed: its chip cannot be removed twice. */
  removing: boolean;
}

interface MediaAttachmentProps extends MediaAttachmentState {
  /**
   * The `data-testid`s are `${testIdPrefix}-attach` (the file input), `-pending-file`,
   * `-media-name` and `-media-remove`.
   */
  testIdPrefix: string;
  /** The file input's `accept`; any file when absent. */
  accept?: string;
  icon: ReactNode;
  labels: { attach: string; replace: string; none: string };
}

/** The attachment row of a record's form: pick or replace a file, drop the picked one or the stored one. */
export function MediaAttachment({
  testIdPrefix,
  accept,
  icon,
  labels,
  pendingFile,
  mediaName,
  onPick,
  onRemovePending,
  onRemoveStored,
  removing,
}: MediaAttachmentProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <input
        ref={fileInput}
        type="file"
        accept={accept}
        hidden
        data-testid={`${testIdPrefix}-attach`}
        onChange={(event) => {
          onPick(event.target.files?.[0]);
          // Emptied so that picking the same file again still fires `change`.
          event.target.value = '';
        }}
      />
      <Button size="small" startIcon={icon} onClick={() => fileInput.current?.click()}>
        {mediaName || pendingFile ? labels.replace : labels.attach}
      </Button>
      {pendingFile && (
        <Chip
          size="small"
          color="primary"
          label={pendingFile.name}
          onDelete={onRemovePending}
          data-testid={`${testIdPrefix}-pending-file`}
        />
      )}
      {!pendingFile && mediaName && (
        <Chip
          size="small"
          label={mediaName}
          onDelete={removing ? undefined : onRemoveStored}
          data-testid={`${testIdPrefix}-media-name`}
          deleteIcon={<Cancel data-testid={`${testIdPrefix}-media-remove`} />}
        />
      )}
      {!pendingFile && !mediaName && (
        <Typography variant="caption" color="text.secondary">
          {labels.none}
        </Typography>
      )}
    </Stack>
  );
}
