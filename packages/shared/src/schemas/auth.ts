import { z } from 'zod';
import { sessionUserSchema } from './users.js';

export const loginBody = z.object({
  email: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(200),
});

export const sessionReply = z.object({ token: z.string(), user: sessionUserSchema });
export type SessionReply = z.infer<typeof sessionReply>;
