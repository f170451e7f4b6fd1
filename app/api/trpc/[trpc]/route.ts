import { handleTrpcRequest } from '@/server/trpc/http-handler';

export { handleTrpcRequest as GET, handleTrpcRequest as POST };
