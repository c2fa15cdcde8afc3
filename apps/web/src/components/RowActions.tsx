import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

interface RowActionsProps {
  onEdit: () => void;
  editTestId: string;
  /** Without it the delete button is not shown. */
  onDelete?: () => void;
  deleteTestId: string;
}

/** The edit and delete icon buttons at the end of a list row. */
export function RowActions({ onEdit, editTestId, onDelete, deleteTestId }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Tooltip title={t('common.edit')}>
        <IconButton size="small" onClick={onEdit} data-testid={editTestId}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {onDelete && (
        <Tooltip title={t('common.delete')}>
          <IconButton size="small" color="error" onClick={onDelete} data-testid={deleteTestId}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
