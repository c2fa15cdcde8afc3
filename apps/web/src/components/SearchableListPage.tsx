import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from './PageContainer';
import { SearchField } from './SearchField';

interface SearchableListPageProps {
  /** The feature's i18n namespace and test-id prefix: `<ns>.count`, `<ns>.searchPlaceholder`, `<ns>.add`. */
  ns: string;
  title: ReactNode;
  /** The number of records, once the first page has come. */
  count: number | undefined;
  search: string;
  onSearch: (value: string) => void;
  /** Without it (a reader who may not add) the add button is not shown. */
  onAdd?: () => void;
  children: ReactNode;
}

/** A list screen's frame: the title with its record count, the search field and the add button. */
export function SearchableListPage({ ns, title, count, search, onSearch, onAdd, children }: SearchableListPageProps) {
  const { t } = useTranslation();
  return (
    <PageContainer
      title={
        <>
          {title}
          {count !== undefined && (
            <Chip
              size="small"
              label={t(`${ns}.count`, { count })}
              sx={{ ml: 1.5, verticalAlign: 'middle' }}
              data-testid={`${ns}-count`}
            />
          )}
        </>
      }
      actions={
        <>
          <SearchField
            value={search}
            onChange={onSearch}
            placeholder={t(`${ns}.searchPlaceholder`)}
            testId={`${ns}-search`}
          />
          {onAdd && (
            <Button variant="contained" startIcon={<Add />} onClick={onAdd} data-testid={`${ns}-add`}>
              {t(`${ns}.add`)}
            </Button>
          )}
        </>
      }
    >
      {children}
    </PageContainer>
  );
}
