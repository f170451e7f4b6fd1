import { handleAuthRequest } from '@/server/auth/http';

export { handleAuthRequest as GET, handleAuthRequest as POST };
