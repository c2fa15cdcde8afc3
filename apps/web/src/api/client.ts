import { backendUrl } from './config';
import { createHttpClient } from './http';

/** The one API client of the app. */
export const http = createHttpClient({ baseUrl: backendUrl });
