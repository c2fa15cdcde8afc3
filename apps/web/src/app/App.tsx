import { TOAST_MS } from '@balcao/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { AppRoutes } from './AppRoutes';
import { AuthProvider } from './AuthContext';
import { ColorModeProvider, useColorMode } from './ColorModeProvider';
import { createQueryClient } from './queryClient';
import { RealtimeProvider } from './RealtimeProvider';

function Toasts() {
  const { mode } = useColorMode();
  return <ToastContainer position="top-right" autoClose={TOAST_MS} theme={mode === 'dark' ? 'dark' : 'colored'} />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <ColorModeProvider>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AuthProvider>
            <RealtimeProvider>
              <AppRoutes />
            </RealtimeProvider>
          </AuthProvider>
        </BrowserRouter>
        <Toasts />
      </QueryClientProvider>
    </ColorModeProvider>
  );
}
