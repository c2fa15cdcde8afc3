import { ASSISTANT_LIMITS, type AssistantState } from '@balcao/shared';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { assistantApi, assistantKey, patchAssistant, usageOf } from './assistantApi';

/** Spec part 1 §4: the token screen returns to chat 1.5 s after a successful save. */
export const TOKEN_SAVED_RETURN_MS = 1500;

const codeOf = (err: unknown) => (err instanceof ApiError ? err.code : undefined);

/** The "auth" step: the user's own e-mail and password, both required. */
export function AuthStep() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const signIn = useMutation({
    mutationFn: assistantApi.signIn,
    onSuccess: (state) => queryClient.setQueryData(assistantKey, state),
    onError: (err) =>
      setError(
        t(codeOf(err) === 'ERR_ASSISTANT_INVALID_CREDENTIALS' ? 'assistant.wrongCredentials' : 'assistant.loginFailed'),
      ),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      setError(t('assistant.fillAll'));
      return;
    }
    setError('');
    signIn.mutate({ username: username.trim(), password });
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5} sx={{ p: 2 }} data-testid="assistant-auth">
      <Typography variant="body2" color="text.secondary">
        {t('assistant.authIntro')}
      </Typography>
      <TextField
        label={t('assistant.username')}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoComplete="username"
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'assistant-username' } }}
      />
      <TextField
        label={t('assistant.password')}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'assistant-password' } }}
      />
      {error && (
        <Alert severity="error" data-testid="assistant-auth-error">
          {error}
        </Alert>
      )}
      <Button type="submit" variant="contained" disabled={signIn.isPending} data-testid="assistant-sign-in">
        {t('assistant.signIn')}
      </Button>
    </Stack>
  );
}

/** The "token" step: saved, the success message shows and the chat returns 1.5 s later. */
export function TokenStep({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const done = useRef(onDone);
  done.current = onDone;
  const save = useMutation({
    mutationFn: assistantApi.saveToken,
    onSuccess: () => setSaved(true),
    onError: () => setError(t('assistant.tokenSaveFailed')),
  });

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => done.current(), TOKEN_SAVED_RETURN_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) {
      setError(t('assistant.emptyToken'));
      return;
    }
    setError('');
    save.mutate(token.trim());
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5} sx={{ p: 2 }} data-testid="assistant-token">
      <Typography variant="body2" color="text.secondary">
        {t('assistant.tokenIntro')}
      </Typography>
      <TextField
        label={t('assistant.token')}
        type="password"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        autoComplete="off"
        size="small"
        disabled={saved}
        slotProps={{ htmlInput: { 'data-testid': 'assistant-token-input', maxLength: ASSISTANT_LIMITS.token } }}
      />
      {error && (
        <Alert severity="error" data-testid="assistant-token-error">
          {error}
        </Alert>
      )}
      {saved && (
        <Alert severity="success" data-testid="assistant-token-saved">
          {t('assistant.tokenSaved')}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        {onCancel && !saved && <Button onClick={onCancel}>{t('assistant.cancel')}</Button>}
        <Button type="submit" variant="contained" disabled={save.isPending || saved} data-testid="assistant-save-token">
          {t('assistant.saveToken')}
        </Button>
      </Stack>
    </Stack>
  );
}

interface Notice {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  error?: boolean;
}

/** The chat: the stored history, then this session's unanswered messages and refusals (not stored). */
export function ChatStep({ state, onNeedToken }: { state: AssistantState; onNeedToken: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('');
  const [notices, setNotices] = useState<Notice[]>([]);
  const seq = useRef(0);
  const end = useRef<HTMLDivElement>(null);
  const overQuota = t('assistant.overQuota', { limit: state.usage.limit });

  const note = (role: Notice['role'], content: string, error = false) => {
    const id = ++seq.current;
    setNotices((list) => [...list, { id, role, content, error }]);
    return id;
  };

  const send = useMutation({
    mutationFn: ({ content }: { content: string; pending: number }) => assistantApi.send(content),
    onSuccess: (reply, { pending }) => {
      setNotices((list) => list.filter((n) => n.id !== pending));
      patchAssistant(queryClient, (s) => ({
        ...s,
        history: [...s.history, reply.message, reply.reply],
        usage: reply.usage,
      }));
    },
    onError: (err) => {
      const code = codeOf(err);
      const usage = err instanceof ApiError ? usageOf(err.body) : undefined;
      if (usage) patchAssistant(queryClient, (s) => ({ ...s, usage }));
      if (code === 'ERR_ASSISTANT_NO_TOKEN') {
        patchAssistant(queryClient, (s) => ({ ...s, hasToken: false }));
        onNeedToken();
      } else if (code === 'ERR_ASSISTANT_SIGNED_OUT') {
        void queryClient.invalidateQueries({ queryKey: assistantKey });
      } else if (code === 'ERR_ASSISTANT_DAILY_LIMIT') {
        patchAssistant(queryClient, (s) => ({ ...s, usage: { remaining: 0, limit: s.usage.limit } }));
        note('assistant', overQuota, true);
      } else {
        note('assistant', t('assistant.providerFailure'), true);
      }
    },
  });

  const entries = state.history.length + notices.length;
  useEffect(() => {
    if (entries) end.current?.scrollIntoView?.({ block: 'end' });
  }, [entries]);

  const submit = () => {
    const content = draft.trim();
    if (!content || send.isPending) return;
    setDraft('');
    const pending = note('user', content);
    // A used-up quota means nothing is sent (spec part 1 §8).
    if (state.usage.remaining <= 0) {
      note('assistant', overQuota, true);
      return;
    }
    send.mutate({ content, pending });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }} data-testid="assistant-chat">
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 1.5 }} data-testid="assistant-messages">
        {entries === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 2 }}>
            {t('assistant.empty')}
          </Typography>
        )}
        {[
          ...state.history.map((h, i) => ({ key: `h${i}`, role: h.role, content: h.content, error: false })),
          ...notices.map((n) => ({ key: `n${n.id}`, role: n.role, content: n.content, error: Boolean(n.error) })),
        ].map((m) => (
          <Box
            key={m.key}
            data-testid={`assistant-entry-${m.role}`}
            data-error={m.error || undefined}
            sx={{ display: 'flex', justifyContent: m.role === 'user' ? 'flex-end' : 'flex-start', mb: 1 }}
          >
            <Box
              aria-label={t(m.role === 'user' ? 'assistant.you' : 'assistant.assistant')}
              sx={{
                maxWidth: '85%',
                px: 1.5,
                py: 1,
                borderRadius: 2,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                typography: 'body2',
                bgcolor: m.error ? 'error.light' : m.role === 'user' ? 'primary.main' : 'action.hover',
                color: m.error ? 'error.contrastText' : m.role === 'user' ? 'primary.contrastText' : 'text.primary',
              }}
            >
              {m.content}
            </Box>
          </Box>
        ))}
        {send.isPending && (
          <Typography variant="caption" color="text.secondary" data-testid="assistant-typing">
            …
          </Typography>
        )}
        <div ref={end} />
      </Box>
      <Stack direction="row" spacing={1} sx={{ p: 1, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
        <TextField
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('assistant.placeholder')}
          multiline
          maxRows={4}
          size="small"
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'assistant-input', maxLength: ASSISTANT_LIMITS.message } }}
        />
        <IconButton
          color="primary"
          onClick={submit}
          disabled={send.isPending}
          aria-label={t('assistant.send')}
          data-testid="assistant-send"
        >
          <SendIcon />
        </IconButton>
      </Stack>
    </Box>
  );
}
