import { handlers } from '@/server/auth/config';

export const { GET, POST } = handlers;
