import type { Ticket } from '@balcao/shared';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../app/AuthContext';
import { ColorChip } from '../../components/ColorChip';
import { toastError } from '../../components/toastError';
import { ticketsApi, useTagOptions } from './ticketsApi';
import { useStoreTicket, viewerOf } from './ticketsQueries';

type TagRef = Ticket['tags'][number];

/** The ticket's tags: picking or removing one replaces them all (POST /tags/sync). */
export function TagsEditor({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const store = useStoreTicket(viewerOf(me));
  const tags = useTagOptions();
  const sync = useMutation({
    mutationFn: (next: TagRef[]) => ticketsApi.syncTags(ticket.id, next),
    onMutate: (next) => store({ ...ticket, tags: next }),
    onError: (err) => {
      store(ticket);
      toastError(err);
    },
  });
  const options: TagRef[] = (tags.data ?? []).map(({ id, name, color }) => ({ id, name, color }));

  return (
    <Box sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }} data-testid="tags-editor">
      <Autocomplete<TagRef, true>
        multiple
        size="small"
        options={options}
        value={ticket.tags}
        onChange={(_, next) => sync.mutate(next)}
        getOptionLabel={(tag) => tag.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterSelectedOptions
        noOptionsText={t('tickets.tags.none')}
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <ColorChip
                key={key}
                size="small"
                label={tag.name}
                {...itemProps}
                color={tag.color}
                sx={{ '& .MuiChip-deleteIcon': { color: 'inherit', opacity: 0.8 } }}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={ticket.tags.length ? '' : t('tickets.tags.placeholder')}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'tags-input' },
            }}
          />
        )}
      />
    </Box>
  );
}
