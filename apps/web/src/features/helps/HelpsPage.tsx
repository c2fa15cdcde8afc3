import { type Help, youtubeThumbnailUrl } from '@balcao/shared';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlineOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { PageContainer } from '../../components/PageContainer';
import { helpsApi } from './helpsApi';
import { VideoDialog } from './VideoDialog';

const GRID = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))',
  alignContent: 'start',
} as const;

const SKELETONS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Two lines at most; the whole text is in the video modal. */
const clamp = (lines: number) =>
  ({ display: '-webkit-box', WebkitLineClamp: lines, WebkitBoxOrient: 'vertical', overflow: 'hidden' }) as const;

function VideoCard({ help, onOpen }: { help: Help; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" data-testid={`help-card-${help.id}`}>
      {/* A button: a click, Enter or Space opens the video. */}
      <CardActionArea
        onClick={onOpen}
        aria-label={t('helpVideos.play', { title: help.title })}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'action.hover' }}>
          <Box
            component="img"
            src={youtubeThumbnailUrl(help.video)}
            alt=""
            loading="lazy"
            sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
            data-testid={`help-thumbnail-${help.id}`}
          />
          <PlayCircleOutline
            sx={{
              position: 'absolute',
              inset: 0,
              m: 'auto',
              fontSize: 56,
              color: 'common.white',
              filter: 'drop-shadow(0 1px 3px rgba(0,0,0,.6))',
            }}
          />
        </Box>
        <CardContent sx={{ flexGrow: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, ...clamp(2) }}>
            {help.title}
          </Typography>
          {help.description && (
            <Typography variant="body2" color="text.secondary" sx={clamp(2)}>
              {help.description}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** /helps (spec part 2 §2): a grid of video cards; a card opens the video modal, Escape closes it. */
export default function HelpsPage() {
  const { t } = useTranslation();
  const helps = useQuery({ queryKey: queryKeys.helps, queryFn: helpsApi.list });
  const [playing, setPlaying] = useState<Help | null>(null);

  let content: ReactNode;
  if (helps.isPending) {
    content = (
      <Box sx={GRID} data-testid="helps-loading">
        {SKELETONS.map((key) => (
          <Box key={key}>
            <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto' }} />
            <Skeleton width="80%" sx={{ mt: 1 }} />
            <Skeleton width="50%" />
          </Box>
        ))}
      </Box>
    );
  } else if (helps.isError || helps.data.length === 0) {
    content = (
      <Paper
        variant="outlined"
        sx={{ p: 6, display: 'grid', placeItems: 'center', gap: 1, textAlign: 'center' }}
        data-testid="helps-empty"
      >
        <VideoLibraryOutlined color="primary" sx={{ fontSize: 56 }} />
        <Typography color="text.secondary">
          {t(helps.isError ? 'settings.admin.loadFailed' : 'helpVideos.empty')}
        </Typography>
      </Paper>
    );
  } else {
    content = (
      <Box sx={GRID} data-testid="helps-grid">
        {helps.data.map((help) => (
          <VideoCard key={help.id} help={help} onOpen={() => setPlaying(help)} />
        ))}
      </Box>
    );
  }

  return (
    <PageContainer title={t('pages.helps')}>
      {content}
      <VideoDialog help={playing} onClose={() => setPlaying(null)} />
    </PageContainer>
  );
}
